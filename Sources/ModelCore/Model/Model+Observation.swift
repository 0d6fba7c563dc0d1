/// A registered column observer or binding; ``cancel()`` removes it.
///
/// Observers live as long as the observed record unless cancelled; dropping this token
/// does not remove them.
public final class ColumnObservation {
    private var cancellers: [() -> Void]

    init(_ cancellers: [() -> Void]) { self.cancellers = cancellers }

    /// Stops the observer (or both directions of a binding). Idempotent.
    public func cancel() {
        let list = cancellers
        cancellers = []
        for cancel in list { cancel() }
    }
}

extension ModelProtocol {
    /// Calls `handler` with the old and new value every time the column behind `keyPath`
    /// changes (by assignment, `set`, `revert`, `reload` or rollback). Assigning an equal
    /// value does not call it.
    ///
    /// ```swift
    /// let observation = try todo.observe(\.name) { old, new in print("\(old) → \(new)") }
    /// todo.name = "walk"        // prints " → walk"
    /// observation.cancel()
    /// ```
    ///
    /// - Throws: ``ModelError`` `.notAColumn` when `keyPath` is not one `@Column` property.
    /// With `initial: true`, `handler` is also called once at once, with the current
    /// value as both old and new (to set up a view from the record's state).
    @discardableResult
    public func observe<T: ColumnValue>(
        _ keyPath: KeyPath<Self, T>, initial: Bool = false, _ handler: @escaping (_ old: T, _ new: T) -> Void
    ) throws -> ColumnObservation {
        let slot = try self.slot(of: keyPath)
        let observation = addObserver(slot) { old, new in
            if let old = T(modelValue: old), let new = T(modelValue: new) { handler(old, new) }
        }
        if initial, let current = T(modelValue: __values[slot]) { handler(current, current) }
        return observation
    }

    /// Calls `handler` with the old and new stored value every time the named column
    /// changes.
    ///
    /// - Throws: ``ModelError`` `.unknownColumn`.
    /// With `initial: true`, `handler` is also called once at once with the current value
    /// as both old and new.
    @discardableResult
    public func observe(
        _ column: String, initial: Bool = false, _ handler: @escaping (_ old: ModelValue, _ new: ModelValue) -> Void
    ) throws -> ColumnObservation {
        let slot = try slot(named: column)
        let observation = addObserver(slot, handler)
        if initial { handler(__values[slot], __values[slot]) }
        return observation
    }

    /// Keeps this record's column in step with another record's column.
    ///
    /// The target takes the source's current value at once, then every later change.
    /// With `twoWay`, changes flow back too (equal values stop the echo). Bindings hold
    /// neither record strongly.
    ///
    /// ```swift
    /// try label.bind(\.title, to: todo, \.name)               // todo.name → label.title
    /// try a.bind(\.name, to: b, \.name, twoWay: true)
    /// ```
    ///
    /// - Throws: ``ModelError`` `.notAColumn` when a key path is not one `@Column`.
    @discardableResult
    public func bind<Source: Model, T: ColumnValue>(
        _ keyPath: ReferenceWritableKeyPath<Self, T>, to source: Source, _ sourceKeyPath: ReferenceWritableKeyPath<Source, T>,
        twoWay: Bool = false
    ) throws -> ColumnObservation {
        let targetSlot = try slot(of: keyPath)
        let sourceSlot = try source.slot(of: sourceKeyPath)
        self[keyPath: keyPath] = source[keyPath: sourceKeyPath]
        let forward = source.addObserver(sourceSlot) { [weak self] _, new in
            if let self, let value = T(modelValue: new) { self[keyPath: keyPath] = value }
        }
        guard twoWay else { return forward }
        let backward = addObserver(targetSlot) { [weak source] _, new in
            if let source, let value = T(modelValue: new) { source[keyPath: sourceKeyPath] = value }
        }
        return ColumnObservation([forward.cancel, backward.cancel])
    }

    /// The row index of the `@Column` behind a key path, found by reading it once.
    package func slot<T>(of keyPath: KeyPath<Self, T>) throws(ModelError) -> Int {
        try slot(ofPartial: keyPath)
    }

    /// The row index of the `@Column` (or `@BelongsTo` foreign key) behind a key path of
    /// any value type.
    package func slot(ofPartial keyPath: PartialKeyPath<Self>) throws(ModelError) -> Int {
        let schema = recordSchema
        let extras = self.extras
        let saved = extras.probe
        extras.probe = []
        _ = self[keyPath: keyPath]
        let read = extras.probe ?? []
        extras.probe = saved
        guard read.count == 1, let slot = read.first, slot > 0 else {
            throw ModelError(
                .notAColumn, model: schema.modelName,
                message: "the key path must name exactly one @Column property (it read \(read.count) columns)")
        }
        return slot
    }

    package func addObserver(_ slot: Int, _ handler: @escaping (ModelValue, ModelValue) -> Void) -> ColumnObservation {
        let extras = self.extras
        let token = extras.nextToken
        extras.nextToken += 1
        extras.observers[slot, default: []].append(RecordExtras.Observer(token: token, handler: handler))
        return ColumnObservation([
            { [weak extras] in
                extras?.observers[slot]?.removeAll { $0.token == token }
                if extras?.observers[slot]?.isEmpty == true { extras?.observers[slot] = nil }
            }
        ])
    }
}
