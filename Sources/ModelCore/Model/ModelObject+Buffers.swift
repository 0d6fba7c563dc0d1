/// Arrays of records handled as `ModelObject`s in code generic over the model.
///
/// ModelCore's and ModelQuery's code is not specialised for each model, so converting a
/// `[M]` to `[ModelObject]` casts element by element, and appending to a `[M]` runs the
/// standard library's unspecialised array code (about 75 instructions a record). A class
/// reference has one layout whatever its class, so these rebind the array's buffer instead
/// and the loops that use them are not generic.
extension ModelObject {
    /// Runs `body` over `records` as `ModelObject`s: the same references, read in place.
    static func _withObjects<M: ModelObject, R>(
        _ records: [M], _ body: (UnsafeBufferPointer<ModelObject>) throws -> R
    ) rethrows -> R {
        try records.withUnsafeBufferPointer { try $0.withMemoryRebound(to: ModelObject.self, body) }
    }

    /// A `[M]` of at most `count` records, stored in place by `fill`: it initialises the
    /// buffer's elements from the first, in order, adding one to its `Int` after each (its
    /// final value is the array's count). If `fill` throws, the records it stored are
    /// released. Every record stored must be an `M`.
    package static func _makeArray<M: ModelObject>(
        of type: M.Type, count: Int, _ fill: (UnsafeMutableBufferPointer<ModelObject>, inout Int) throws -> Void
    ) rethrows -> [M] {
        // `Array(unsafeUninitializedCapacity: 0)` stores its count into the shared empty
        // array's storage, a write other threads' empty arrays race with.
        guard count > 0 else { return [] }
        return try [M](unsafeUninitializedCapacity: count) { buffer, initialized in
            try buffer.withMemoryRebound(to: ModelObject.self) { try fill($0, &initialized) }
        }
    }
}
