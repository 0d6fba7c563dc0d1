/// An error an adapter throws for a query it cannot express — an HTTP API's parameters
/// cover only part of the query language — instead of fetching more and filtering on the
/// client. The conformance suite's `.partialQueries` limitation accepts it as a skip.
public protocol QueryNotExpressible: Error {
    /// The part of the query that cannot be expressed; nil when the error is about
    /// something else.
    var unexpressedPart: String? { get }
}
