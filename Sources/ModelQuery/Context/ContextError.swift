import ModelCore

/// A context operation that cannot be done, naming the model and record concerned.
public struct ContextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The record belongs to another live context.
        case foreignRecord
        /// The model opted out of contexts (``ModelProtocol/joinsContexts`` is `false`).
        case notJoinable
        /// Another instance of the same record is already in the context.
        case duplicateRecord
        /// The pending writes span more than one store: one transaction cannot hold them.
        case mixedStores
        /// No store could be found for the pending writes.
        case noStore
        /// A context file that cannot be read: missing, not a context, damaged, or written
        /// for other columns.
        case invalidFile
        /// A context file names a model the load was not given.
        case unknownModel
    }

    /// What went wrong.
    public var kind: Kind
    /// The model concerned, if any.
    public var model: String?
    /// The record's id, if any.
    public var id: ModelValue?
    /// The file concerned, if any.
    public var path: String?
    /// Details.
    public var message: String

    /// Creates a context error.
    public init(_ kind: Kind, model: String? = nil, id: ModelValue? = nil, path: String? = nil, message: String) {
        self.kind = kind
        self.model = model
        self.id = id
        self.path = path
        self.message = message
    }

    public var description: String {
        var place = "ModelContext"
        if let path { place += " file \(path)" }
        if let model { place += " " + model }
        if let id { place += " id \(id)" }
        return place + ": " + message
    }
}

extension ContextError: SwiftModelError {
    /// The model, when one is concerned.
    public var modelName: String? { model }
}
