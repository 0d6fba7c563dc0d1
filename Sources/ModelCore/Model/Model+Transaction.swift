extension ModelProtocol {
    /// Runs `body` with a snapshot of the record's values, so ``rollback()`` can return to
    /// it (MotionModel's record transactions).
    ///
    /// Blocks nest, each with its own snapshot; `rollback()` restores the innermost one
    /// and the block carries on. If `body` throws, the record is rolled back to the
    /// block's snapshot and the error rethrown. This touches only the record's values,
    /// not the store: for atomic writes use ``PersistenceAdapter/transaction(_:)``.
    ///
    /// ```swift
    /// try todo.transaction {
    ///     todo.name = "draft"
    ///     if !approved { try todo.rollback() }   // name is back to what it was
    /// }
    /// ```
    @discardableResult
    public func transaction<R>(_ body: () throws -> R) rethrows -> R {
        _ = recordSchema
        let extras = self.extras
        extras.snapshots.append(__values)
        do {
            let result = try body()
            extras.snapshots.removeLast()
            return result
        } catch {
            let snapshot = extras.snapshots.removeLast()
            _assignAll(snapshot)
            throw error
        }
    }

    /// Restores the values captured when the innermost ``transaction(_:)`` block began.
    ///
    /// - Throws: ``ModelError`` `.noTransaction` outside a transaction block.
    public func rollback() throws {
        guard let snapshot = __extras?.snapshots.last else {
            throw ModelError(
                .noTransaction, model: recordSchema.modelName, message: "rollback() called outside transaction {}")
        }
        _assignAll(snapshot)
    }
}
