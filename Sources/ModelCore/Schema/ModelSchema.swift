
/// A model's schema: its table, columns, id and timestamp columns.
///
/// Built once per model type (on first use) and cached; adapters receive it with every
/// call. Column 0 is always the id.
///
/// ```swift
/// let schema = Todo.schema
/// schema.columns.map(\.name)          // ["id", "name", "long_name", "due_date", …]
/// schema.column(named: "due_date")?.type   // .date
/// ```
public final class ModelSchema: Sendable, CustomStringConvertible {
    /// The model's Swift type name (`"Todo"`).
    public let modelName: String
    /// The table (or collection) name adapters store rows under.
    public let tableName: String
    /// All columns in row order; `columns[0]` is the id.
    public let columns: [ColumnDefinition]
    /// The column names in row order (`columns.map(\.name)`, computed once).
    public let columnNames: [String]
    /// How new ids are made.
    public let idGeneration: IDGeneration
    /// The index of `created_at`, when declared and timestamps are on.
    public let createdAtIndex: Int?
    /// The index of `updated_at`, when declared and timestamps are on.
    public let updatedAtIndex: Int?
    /// Why this model cannot be persisted, if it cannot.
    public let problem: SchemaError?

    /// The model type this schema was built from (nil for placeholder schemas), so layers
    /// that receive only a schema (adapters) can reach the type's static declarations.
    package let modelType: (any ModelProtocol.Type)?
    /// Whether the model conforms to ``SaveValidating`` (checked once, when built).
    package let validatesOnSave: Bool
    /// Whether property reads register with Observation (``ModelProtocol/isObservable``).
    @usableFromInline package let isObservable: Bool
    /// Whether records join the current context (``ModelProtocol/joinsContexts``).
    package let joinsContexts: Bool
    /// Whether the store keeps the model's change history (``ModelProtocol/keepsHistory``).
    public let keepsHistory: Bool
    /// Relations as declared (resolved on first use, see ``relations()``).
    package let relationDeclarations: [RelationDeclaration]
    private let resolvedRelations = Locked<Result<[Relation], SchemaError>?>(nil)
    /// Declaration locations by row index (`-1` for the id).
    @usableFromInline package let locations: [Int]
    private let indexByName: [String: Int]
    /// Each column's default, in row order (read per new record without copying columns).
    private let defaults: [ColumnDefault]
    /// The new-record row when no default is a factory.
    private let constantDefaults: [ModelValue]?
    /// The baseline new records share when their factories make equal rows.
    private let initialRows = InitialRows()
    /// Per column, what a loaded value must be (see ``ColumnLoadCheck``).
    package let loadChecks: [ColumnLoadCheck]
    /// Columns with ``ColumnOptions/fieldTimestamps`` and the slots of their two stamps.
    package let fieldTimestamps: [FieldTimestampSlots]
    /// Whether any column has field timestamps (one branch per property write otherwise).
    @usableFromInline package let tracksFieldTimestamps: Bool
    /// Per column, the changed-column list of an update that changes it alone (with the
    /// `updated_at` stamp after it when the model stamps one): made once, so most updates
    /// allocate no list of their own.
    package let lonelyChanges: [[Int]]

    package init(
        modelName: String, tableName: String, columns: [ColumnDefinition], idGeneration: IDGeneration,
        locations: [Int], timestamps: Bool, problem: SchemaError?, validatesOnSave: Bool = false,
        relations: [RelationDeclaration] = [], isObservable: Bool = true, joinsContexts: Bool = true,
        keepsHistory: Bool = false, modelType: (any ModelProtocol.Type)? = nil
    ) {
        self.joinsContexts = joinsContexts
        self.keepsHistory = keepsHistory
        self.modelType = modelType
        self.isObservable = isObservable
        self.relationDeclarations = relations
        self.validatesOnSave = validatesOnSave
        self.modelName = modelName
        self.tableName = tableName
        self.columns = columns
        self.columnNames = columns.map(\.name)
        self.loadChecks = Self.loadChecks(columns)
        let defaults = columns.map(\.defaultValue)
        self.defaults = defaults
        self.constantDefaults = defaults.allSatisfy(\.isConstant) ? defaults.map { $0.makeValue() } : nil
        var stamps: [FieldTimestampSlots] = []
        for column in columns where column.options.contains(.fieldTimestamps) {
            if let set = columns.firstIndex(where: { $0.name == column.name + "_set_at" }),
                let changed = columns.firstIndex(where: { $0.name == column.name + "_changed_at" })
            {
                stamps.append(FieldTimestampSlots(column: column.index, setAt: set, changedAt: changed))
            }
        }
        self.fieldTimestamps = stamps
        self.tracksFieldTimestamps = !stamps.isEmpty
        self.idGeneration = idGeneration
        self.locations = locations
        var byName: [String: Int] = [:]
        for column in columns where byName[column.name] == nil { byName[column.name] = column.index }
        self.indexByName = byName
        let created = byName["created_at"], updated = byName["updated_at"]
        self.createdAtIndex = timestamps && created.map { columns[$0].type == .date } == true ? created : nil
        let updatedAt = timestamps && updated.map { columns[$0].type == .date } == true ? updated : nil
        self.updatedAtIndex = updatedAt
        self.lonelyChanges = columns.indices.map { k in
            guard let updatedAt, updatedAt != k else { return [k] }
            return [k, updatedAt]
        }
        self.problem = problem
    }

    /// The id column.
    public var idColumn: ColumnDefinition { columns[0] }

    /// The column with this stored name.
    public func column(named name: String) -> ColumnDefinition? { indexByName[name].map { columns[$0] } }

    /// The row index of the column with this stored name.
    public func index(ofColumn name: String) -> Int? { indexByName[name] }

    /// Throws ``problem`` (or a relation that cannot be resolved) if there is one; used
    /// before anything touches a store.
    public func validate() throws(SchemaError) {
        if let problem { throw problem }
        if !relationDeclarations.isEmpty { _ = try relations() }
    }

    /// The model's relations, resolved against the related models on first use (so models
    /// may refer to each other) and cached. A missing or ambiguous inverse, or a foreign
    /// key of the wrong type, is a ``SchemaError`` `.invalidRelation`.
    public func relations() throws(SchemaError) -> [Relation] {
        if let done = resolvedRelations.withLock({ $0 }) { return try done.get() }
        var result: Result<[Relation], SchemaError> = .success([])
        var list: [Relation] = []
        for declaration in relationDeclarations {
            switch declaration.resolve(self) {
            case .success(let relation): list.append(relation)
            case .failure(let error): result = .failure(error)
            }
            if case .failure = result { break }
        }
        if case .success = result { result = .success(list) }
        let stored = resolvedRelations.withLock { cached in
            if let cached { return cached }
            cached = result
            return result
        }
        return try stored.get()
    }

    /// The relation declared by the property `name`.
    public func relation(named name: String) throws(SchemaError) -> Relation? {
        try relations().first { $0.name == name }
    }

    /// The relation declared by the wrapper at `location`.
    package func relation(at location: Int) throws(SchemaError) -> Relation? {
        try relations().first { $0.location == location }
    }

    /// The row index of the `@Column` declared at `location`.
    ///
    /// - Complexity: O(columns), a scan of integers (models rarely exceed a few dozen).
    @inlinable package func slot(for location: Int) -> Int {
        var k = 1
        let count = locations.count
        while k < count {
            if locations[k] == location { return k }
            k &+= 1
        }
        return -1
    }

    /// What a property read or write of the `@Column` declared at `location` needs: its
    /// slot (``slot(for:)``) and the two flags the access consults.
    @inlinable package func access(for location: Int) -> (slot: Int, isObservable: Bool, tracksFieldTimestamps: Bool) {
        (slot(for: location), isObservable, tracksFieldTimestamps)
    }

    /// Values for a new record: id nil, each column's default (factories run now).
    /// When every default is a constant, the row is shared, not rebuilt.
    package func newRecordValues() -> [ModelValue] {
        if let constantDefaults { return constantDefaults }
        return ModelValue.row(count: defaults.count) { defaults[$0].makeValue() }
    }

    /// A new record's values and the baseline it keeps beside them (see ``InitialRows``):
    /// equal rows, sharing no buffer when the values were made by factories, so the
    /// record's first assignment does not copy its row.
    package func newRecordRows() -> (values: [ModelValue], baseline: [ModelValue]) {
        let values = newRecordValues()
        if constantDefaults != nil { return (values, values) }
        return (values, initialRows.baseline(for: values))
    }

    /// Whether `row` is a baseline new records share (the constant defaults, or the
    /// initial row every new record has had so far): holding it costs nothing.
    package func isSharedNewRecordRow(_ row: [ModelValue]) -> Bool {
        if let constantDefaults { return ModelValue.sharesStorage(constantDefaults, row) }
        return initialRows.isShared(row)
    }

    public var description: String {
        "\(modelName) (\(tableName)): " + columns.map(\.description).joined(separator: ", ")
    }
}
