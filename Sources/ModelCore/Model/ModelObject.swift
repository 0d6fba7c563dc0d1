import Observation
import Synchronization

/// The storage every model inherits: its row of values and its persistence state.
///
/// You do not use this class directly; declare models as `final class Todo: Model`
/// (``Model`` is `ModelObject & ModelProtocol`). A record's values live in one array in
/// schema order, so loading a row, saving a row and comparing for changes never walk the
/// properties or reflect.
///
/// ## Threading
/// A record is a plain mutable object, not `Sendable`: use it from one task or thread at a
/// time, like any class instance. Adapters are thread-safe; to hand data across isolation
/// domains, pass ids or ``ModelChange`` values (which are `Sendable`) and fetch again.
open class ModelObject {
    /// The current values in schema order (empty until the schema is attached).
    // Records are single-owner (not Sendable) and their stored properties are never
    // accessed re-entrantly, so dynamic exclusivity checks are dropped from all of them:
    // every property write and save reads several. Measured with `Scripts/instructions.py
    // --n 5000` on release builds: without it, SQLite insert takes 200.1 M instructions
    // instead of 150.8 M (+33 %), update all +24 %, fetch all +10 %; ArrayAdapter insert
    // +71 %.
    // Only accesses compiled in ModelCore are unchecked: other modules go through the
    // inlinable accessors in ModelObject+Access.swift.
    @exclusivity(unchecked) @usableFromInline package final var __values: [ModelValue] = []
    /// The schema, attached on first use.
    @exclusivity(unchecked) @usableFromInline package final var __schema: ModelSchema?
    /// Values as last saved or loaded; for a new record, as first initialised (see
    /// ``__baseline``): this row, unless ``__baselinePatch`` holds the baseline instead.
    @exclusivity(unchecked) package final var __baselineRow: [ModelValue] = []
    /// The baseline as the current values with one slot put back, kept while a saved
    /// record has one changed column (see ``_store(_:at:)``); `__baselineRow` is then
    /// empty.
    @exclusivity(unchecked) package final var __baselinePatch: BaselinePatch?
    /// Whether the record exists in a store.
    @exclusivity(unchecked) @usableFromInline package final var __isPersisted = false
    /// The adapter the record was loaded from or saved to.
    @exclusivity(unchecked) @usableFromInline package final var __home: (any PersistenceAdapter)?
    /// Observers, bindings and record-transaction snapshots, allocated on first use.
    @exclusivity(unchecked) @usableFromInline package final var __extras: RecordExtras?
    /// The owner this record was reached through, held weakly (see ``InverseLink``).
    @exclusivity(unchecked) @usableFromInline package final var __inverse = InverseLink()
    /// The record's Observation registrar, made on the first tracked property read (see
    /// ``ModelObservation``); nil for records nobody read through a property.
    /// (Boxed: `ObservationRegistrar` is a resilient type, so testing an inline optional
    /// of it goes through its value witnesses on every property write.)
    @exclusivity(unchecked) @usableFromInline package final var __observation: ObservationBox?
    /// The context (identity map) holding this record, if any (see ``RegistryMembership``).
    @exclusivity(unchecked) @usableFromInline package final var __membership: RegistryMembership?
    /// Whether the record's registry already holds it as possibly changed (set by the
    /// record's first change, cleared by the registry when the record is clean again).
    @exclusivity(unchecked) @usableFromInline package final var __registryTracked = false
    /// Whether SwiftModel keeps a weak reference to this record besides a transaction
    /// level's own (a context's identity map, the table of provisional ids, a child's link
    /// to the owner it was reached through): one that can turn strong on another thread.
    /// Set before the reference is formed and never cleared (``_noteHeldWeakly()``); a
    /// transaction level reads it before it lets go of a record only it holds
    /// (``UndoLog``).
    @exclusivity(unchecked) package final var __heldWeakly = false
    /// Where the record sits in its registry's table of pending work (a hint the registry
    /// checks: the entry there must be this record); changed only holding the registry's
    /// lock.
    @exclusivity(unchecked) @usableFromInline package final var __pendingPlace = -1
    /// The number of the innermost open transaction level holding an undo for this record
    /// (``TransactionHandle/Level/serial``; the level's ``UndoLog`` holds the undo), or of
    /// one that has ended, or 0. A write at the level it names makes no second undo there.
    ///
    /// When it names a level still open, that level holds an undo for the record: it is
    /// set to a level as that level takes an undo, and goes back to the level out as a
    /// level ends (``UndoLog/Entry/outer``). The converse fails only when writes in
    /// transactions on two stores interleave: a level not named here may already hold an
    /// undo for the record, takes a second one, and its rollback restores the earliest
    /// last. A level's number is never reused, so one that ended matches no write. Atomic:
    /// a transaction on another store may end on another thread.
    package final let __undoLevel = Atomic<UInt64>(0)

    /// Models inherit this initialiser; declare `init() {}` in the model.
    public init(_modelObject: Void = ()) {}

    // MARK: Typed access (the @Column hot path)

    @inlinable package final func _read<T: ColumnValue, M: ModelProtocol>(_ location: Int, as type: T.Type, in model: M.Type) -> T {
        let (slot, observable, _) = _lookUp(location, in: M.self)
        if observable, ModelObservation.isEnabled { _observationAccess() }
        if __extras != nil { _noteRead(slot) }
        if slot > 0, let value = T(modelValue: __values[slot]) { return value }
        return _recover(slot, as: T.self)
    }

    @inlinable package final func _write<M: ModelProtocol>(_ value: ModelValue, location: Int, in model: M.Type) {
        let (slot, _, notesSets) = _lookUp(location, in: M.self)
        if slot > 0 {
            if notesSets { _noteSet(slot) }
            _assign(value, at: slot)
        }
    }

    /// ``ModelSchema/access(for:)`` of the attached schema (attaching it first).
    ///
    /// The attached schema is only borrowed here: nothing between reading ``__schema`` and
    /// its last use can release it, so the lookup neither retains nor releases it. (Holding
    /// the schema across the write that follows cost a retain and a release, about 40
    /// instructions, on every property read and write.)
    @inlinable @inline(__always) package final func _lookUp<M: ModelProtocol>(
        _ location: Int, in model: M.Type
    ) -> (slot: Int, isObservable: Bool, tracksFieldTimestamps: Bool) {
        if let schema = __schema { return schema.access(for: location) }
        return _lookUpAttaching(location, in: M.self)
    }

    /// ``_lookUp(_:in:)`` for a record whose schema is not attached yet: kept out of line so
    /// the owned schema it attaches does not merge with the borrowed one of the common path.
    @inlinable @inline(never) package final func _lookUpAttaching<M: ModelProtocol>(
        _ location: Int, in model: M.Type
    ) -> (slot: Int, isObservable: Bool, tracksFieldTimestamps: Bool) {
        _attachSchema(M.self).access(for: location)
    }

    /// Remembers that a column with field timestamps was assigned (see
    /// ``ColumnOptions/fieldTimestamps``).
    @usableFromInline package final func _noteSet(_ slot: Int) {
        extras.setSlots.insert(slot)
    }

    /// Looks the schema up (once per record) and fills new-record defaults.
    @usableFromInline package final func _attachSchema<M: ModelProtocol>(_ model: M.Type) -> ModelSchema {
        attach(SchemaRegistry.schema(for: M.self))
    }

    /// Looks the schema up by the record's dynamic type (once per record).
    @usableFromInline package final func _attachSchema() -> ModelSchema {
        attach(SchemaRegistry.schema(forObject: self))
    }

    private func attach(_ schema: ModelSchema) -> ModelSchema {
        __schema = schema
        if __values.isEmpty {
            (__values, __baseline) = schema.newRecordRows()
        }
        return schema
    }

    /// Stores an already-cast value, notifying observers; equal values change nothing.
    @usableFromInline package final func _assign(_ value: ModelValue, at slot: Int) {
        if !isObserved, slot >= 0, slot < __values.count {
            // Nobody hears of the change. A saved record compares in place and stores unless
            // equal (an equal store would still set its baseline aside); a new record stores
            // without comparing: its row is compared with its baseline only when it is saved,
            // and an equal value reads back the same (negative zero is zero when cast).
            if __isPersisted, ModelValue.row(__values, at: slot, equals: value) { return }
            _store(value, at: slot)
            return
        }
        _assignObserved(value, at: slot)
    }

    /// ``_assign(_:at:)`` for a record something hears of. Out of line: its Observation
    /// registrar is a resilient type, and with it inline every assignment looked up the
    /// registrar's metadata and made room for it on the stack (about 30 instructions a
    /// property write, observed or not).
    @inline(never) private func _assignObserved(_ value: ModelValue, at slot: Int) {
        // Compared in place; the old value is copied out only for observers that are told
        // it (a context's records have none: copying and destroying it, and comparing the
        // copy, cost about 60 instructions a change).
        if ModelValue.row(__values, at: slot, equals: value) { return }
        let old: ModelValue? = __extras != nil ? __values[slot] : nil
        if let registrar = __observation?.registrar {
            registrar.willSet(self, keyPath: \ModelObject.__observed)
            _store(value, at: slot)
            registrar.didSet(self, keyPath: \ModelObject.__observed)
        } else {
            _store(value, at: slot)
        }
        if __membership != nil, !__registryTracked { _noteRegistryChange() }
        if let extras = __extras, let old { extras.didChange(self, slot: slot, old: old, new: value) }
    }

    /// Whether the values differ from the baseline (as last saved or loaded). For code
    /// outside ModelCore, which pays a dynamic exclusivity check on each of the record's
    /// fields it reads (``ModelObject``'s unchecked fields are unchecked only here).
    package final var _valuesChanged: Bool {
        if let patch = __baselinePatch { return __values[patch.slot] != patch.old }
        return !ModelValue.rowsEqual(__values, __baselineRow)
    }

    /// Whether anything hears of the record's value changes: an Observation registrar, a
    /// context holding it, or observers and bindings (``RecordExtras``). When nothing does,
    /// ``_assign(_:at:)`` only stores, so a whole row may replace ``__values`` at once.
    package final var isObserved: Bool { __observation != nil || __membership != nil || __extras != nil }

    @usableFromInline package final func _noteRead(_ slot: Int) {
        __extras?.probe?.append(slot)
    }

    /// A value that does not decode as the property's type. Loaded rows are checked
    /// (`ModelSchema.checkLoaded`) and assignments are cast, so this is only reachable
    /// through a bug; it logs an error and falls back to the column's default in every
    /// build rather than trap.
    @usableFromInline package final func _recover<T: ColumnValue>(_ slot: Int, as type: T.Type) -> T {
        let schema = __schema ?? _attachSchema()
        ModelLogger(subsystem: "model").error(
            "\(schema.modelName): the value at column \(slot) (\(slot >= 0 && slot < __values.count ? __values[slot].debugDescription : "none")) is not a \(T.self); reading the column default")
        if slot > 0, let value = T(modelValue: schema.columns[slot].defaultValue.makeValue()) { return value }
        if let value = T(modelValue: .null) { return value }
        preconditionFailure("\(schema.modelName): column \(slot) holds no value of type \(T.self) and has no default")
    }

    /// Replaces the whole state with a row read from `adapter`. Takes the row: a caller
    /// handing over its last use of it (a `find`) saves a retain and a release.
    @usableFromInline package final func _load(_ row: consuming [ModelValue], schema: ModelSchema, from adapter: any PersistenceAdapter) {
        __schema = schema
        __values = copy row
        __baseline = row
        __isPersisted = true
        __home = adapter
    }

    /// What Observation tracks: the record as a whole. A read of any column registers it;
    /// a change of any column (by property, by name, reload, rollback, a save's stamps)
    /// notifies it.
    package final var __observed: Bool { true }

    /// Tells Observation (SwiftUI, `withObservationTracking`) that the record was read.
    @usableFromInline package final func _observationAccess() {
        if let box = __observation {
            box.registrar.access(self, keyPath: \ModelObject.__observed)
        } else {
            let box = ObservationBox()
            __observation = box
            box.registrar.access(self, keyPath: \ModelObject.__observed)
        }
    }
}

/// A record's Observation registrar, made on the first tracked read.
@usableFromInline package final class ObservationBox {
    package let registrar = ObservationRegistrar()
    @usableFromInline init() {}
}

extension ModelObject: Observable {}
