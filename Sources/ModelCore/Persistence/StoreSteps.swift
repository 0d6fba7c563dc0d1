/// An operation written once, as the store calls it makes and what it does with each
/// answer, without doing any I/O itself: a blocking driver (``run()``) and an async driver
/// (``run()-6c0xq``) run the same steps, so the two forms of an operation cannot differ in
/// what they ask the store or how they use the answers.
///
/// Each step is either the result or one store call with the code to run on its reply,
/// which gives the next step. The code between calls (making records, linking eager loads,
/// announcing a change) runs where the driver runs it: on the caller for the blocking
/// driver and for the async one, so records are made in the caller's isolation; only the
/// store call itself goes where the async route sends it (see ``StoreCall/reply(from:)``).
///
/// Not `Sendable`: the continuations hold records of the caller's isolation. Made and run
/// by one caller.
package struct StoreSteps<T> {
    /// What comes next.
    package enum Next {
        /// The operation's result.
        case done(T)
        /// One call to a store, and what to do with its reply (or its failure).
        case call(StoreCall, any PersistenceAdapter, (Result<StoreReply, any Error>) throws -> StoreSteps<T>)
    }

    package let next: Next

    package init(_ next: Next) { self.next = next }

    /// Steps that are already done.
    @inline(__always) package static func done(_ value: T) -> StoreSteps<T> { StoreSteps(.done(value)) }

    /// One call whose failure ends the operation with its error; `then` gets the reply.
    package static func call(
        _ call: StoreCall, on store: any PersistenceAdapter, then: @escaping (StoreReply) throws -> StoreSteps<T>
    ) -> StoreSteps<T> {
        StoreSteps(.call(call, store, { try then($0.get()) }))
    }

    /// A fetch, then `then` with its rows.
    package static func fetch(
        _ query: StoreQuery, on store: any PersistenceAdapter, then: @escaping ([[ModelValue]]) throws -> StoreSteps<T>
    ) -> StoreSteps<T> {
        StoreSteps(.call(.fetch(query), store, { try then($0.get().rows(for: query)) }))
    }

    /// A count, then `then` with it.
    package static func count(
        _ query: StoreQuery, on store: any PersistenceAdapter, then: @escaping (Int) throws -> StoreSteps<T>
    ) -> StoreSteps<T> {
        StoreSteps(.call(.count(query), store, { try then($0.get().count(for: query)) }))
    }

    /// These steps, then `transform` on their result.
    package func map<U>(_ transform: @escaping (T) throws -> U) throws -> StoreSteps<U> {
        try flatMap { .done(try transform($0)) }
    }

    /// These steps, then the steps `following` makes from their result.
    package func flatMap<U>(_ following: @escaping (T) throws -> StoreSteps<U>) throws -> StoreSteps<U> {
        switch next {
        case .done(let value): return try following(value)
        case .call(let call, let store, let then): return StoreSteps<U>(.call(call, store, { try then($0).flatMap(following) }))
        }
    }

    /// These steps, or, when one of their calls (or the code on a reply) throws an error
    /// `recover` answers with steps, those instead; other errors go on.
    package func recovering(_ recover: @escaping (any Error) throws -> StoreSteps<T>?) -> StoreSteps<T> {
        guard case .call(let call, let store, let then) = next else { return self }
        return StoreSteps(
            .call(call, store, { reply in
                do {
                    return try then(reply).recovering(recover)
                } catch {
                    guard let instead = try recover(error) else { throw error }
                    return instead
                }
            }))
    }
}

extension StoreSteps where T == Void {
    /// Steps that do nothing.
    package static var none: StoreSteps<Void> { .done(()) }
}

extension Sequence {
    /// The steps each element makes, one after another, with their results in order.
    package func steps<U>(_ each: @escaping (Element) throws -> StoreSteps<U>) throws -> StoreSteps<[U]> {
        var all = StoreSteps<[U]>.done([])
        for element in self {
            all = try all.flatMap { done in try each(element).map { done + [$0] } }
        }
        return all
    }
}
