/// Declares records reached through another relation: `league.players` through
/// `league.teams` then `team.players`, or many-to-many through a join model
/// (`student.courses` through `student.enrollments` then `enrollment.course`).
///
/// ```swift
/// final class League: Model {
///     @HasMany var teams: Children<Team>
///     @HasManyThrough(\League.teams, \Team.players) var players: Through<Player>
///     init() {}
/// }
/// final class Student: Model {
///     @HasMany(dependent: .delete) var enrollments: Children<Enrollment>
///     @HasManyThrough(\Student.enrollments, \Enrollment.course) var courses: Through<Course>
///     init() {}
/// }
///
/// try league.players.where(\.age < 20).count()
/// try student.courses.all()
/// ```
///
/// Like `@HasMany`, the property is a lazy handle (``Through``): chaining never touches the
/// store; reading runs two store queries, the intermediate records' keys, then the targets.
/// `destroy()` does not cascade through it (the intermediate relation's rule applies).
@propertyWrapper
public struct HasManyThrough<Target: ModelProtocol>: Sendable {
    let location: Int
    let resolve: @Sendable (ModelSchema) -> Result<ThroughPath, SchemaError>
    let names: @Sendable () -> (via: String, source: String)

    /// Targets that are children of the intermediate records (`league → teams → players`).
    public init<Owner: ModelProtocol, Middle: ModelProtocol>(
        _ via: KeyPath<Owner, Children<Middle>> & Sendable, _ source: KeyPath<Middle, Children<Target>> & Sendable,
        line: UInt = #line, column: UInt = #column
    ) {
        location = Int(line) << 32 | Int(column)
        names = { ("\(via)", "\(source)") }
        resolve = { owner in
            ThroughPath.resolve(owner: owner, via: via) { middleSchema in
                let children = Middle()[keyPath: source]
                return middleSchema.relationDeclarations.first { $0.location == children.location }
                    .flatMap { try? $0.resolve(middleSchema).get() }
                    .map { .children(targetForeignKey: $0.foreignKey) }
            }
        }
    }

    /// Targets that the intermediate records belong to (many-to-many through a join model).
    public init<Owner: ModelProtocol, Middle: ModelProtocol>(
        _ via: KeyPath<Owner, Children<Middle>> & Sendable, _ source: KeyPath<Middle, Target?> & Sendable,
        line: UInt = #line, column: UInt = #column
    ) {
        location = Int(line) << 32 | Int(column)
        names = { ("\(via)", "\(source)") }
        resolve = { owner in
            ThroughPath.resolve(owner: owner, via: via) { _ in
                (try? Middle().slot(ofPartial: source)).map { .parents(middleForeignKey: $0) }
            }
        }
    }

    @available(*, unavailable, message: "@HasManyThrough is only available on Model classes")
    public var wrappedValue: Through<Target> {
        get { preconditionFailure("unreachable: @HasManyThrough outside a Model") }
    }

    // Inlined, so the storage key path folds into a field read (as `@HasMany`'s and
    // `@HasOne`'s).
    /// The owner's targets.
    @inlinable @inline(__always)
    public static subscript<M: ModelProtocol>(
        _enclosingInstance instance: M,
        wrapped wrappedKeyPath: KeyPath<M, Through<Target>>,
        storage storageKeyPath: KeyPath<M, Self>
    ) -> Through<Target> {
        handle(on: instance, instance[keyPath: storageKeyPath])
    }

    /// The targets of `owner` through the relation `wrapper` declares.
    @usableFromInline static func handle<M: ModelProtocol>(on owner: M, _ wrapper: Self) -> Through<Target> {
        Through(owner: owner, path: wrapper.resolve(owner.recordSchema))
    }
}

extension HasManyThrough: AnyRelationWrapper {
    package func declaration(property name: String, owner: any ModelProtocol.Type) -> RelationDeclaration {
        let (location, resolve, names) = (self.location, self.resolve, self.names)
        return RelationDeclaration(
            name: name, location: location, kind: .hasManyThrough, target: ObjectIdentifier(Target.self), foreignKey: nil
        ) { ownerSchema in
            resolve(ownerSchema).map { _ in
                Relation(
                    name: name, kind: .hasManyThrough, ownerModel: ownerSchema.modelName, target: Target.schema, targetType: Target.self,
                    foreignKey: -1, rule: nil, through: names(), location: location)
            }
        }
    }
}

/// How a through relation reaches its targets.
struct ThroughPath: Sendable {
    enum Hop: Sendable {
        /// Targets whose foreign key holds an intermediate record's id.
        case children(targetForeignKey: Int)
        /// Targets whose id an intermediate record's foreign key holds.
        case parents(middleForeignKey: Int)
    }

    /// The intermediate model's schema.
    let middle: ModelSchema
    /// The intermediate's foreign key to the owner.
    let ownerForeignKey: Int
    /// The second hop.
    let hop: Hop

    static func resolve<Owner: ModelProtocol, Middle: ModelProtocol>(
        owner: ModelSchema, via: KeyPath<Owner, Children<Middle>>, second: (ModelSchema) -> Hop?
    ) -> Result<ThroughPath, SchemaError> {
        func failure(_ reason: String) -> Result<ThroughPath, SchemaError> {
            .failure(SchemaError(.invalidRelation, model: owner.modelName, reason: reason))
        }
        let first = Owner()[keyPath: via]
        guard let declaration = owner.relationDeclarations.first(where: { $0.location == first.location }),
            case .success(let viaRelation) = declaration.resolve(owner)
        else { return failure("\(via) is not a resolvable @HasMany of \(owner.modelName)") }
        let middle = Middle.schema
        guard let hop = second(middle) else {
            return failure("the second step is not a @HasMany or @BelongsTo of \(middle.modelName) that can be resolved")
        }
        return .success(ThroughPath(middle: middle, ownerForeignKey: viaRelation.foreignKey, hop: hop))
    }
}

/// The records of a `@HasManyThrough` relation: a lazy handle, like ``Children``.
/// Building it and chaining conditions never touches the store; the reading methods run
/// two store queries (the intermediate records' keys, then the targets) and throw.
///
/// ```swift
/// try league.players.where(\.age < 20).order(by: \.name).all()
/// ```
public struct Through<Target: ModelProtocol> {
    let owner: ModelObject
    let path: Result<ThroughPath, SchemaError>
    /// Conditions, order and limits chained on the handle, applied to the targets' query.
    var shape: [@Sendable (Query<Target>) -> Query<Target>] = []

    /// The targets as a query: reads the intermediate keys now (one store query).
    public func query() throws -> Query<Target> { try querySteps { .done($0) }.run() }

    /// The steps of reading the intermediate keys, then `terminal` on the targets' query.
    func querySteps<R>(_ terminal: @escaping (Query<Target>) throws -> StoreSteps<R>) throws -> StoreSteps<R> {
        let path = try Self.resolvedPath(self.path)
        let (home, shape) = (owner._home, self.shape)
        guard owner._isPersisted else { return try terminal(Self.query(path: path, middleRows: nil, home: home, shape: shape)) }
        let (_, store) = try Target.context(home)
        return .fetch(Self.middleQuery(path, ownerID: owner.__baselineID), on: store) { rows in
            try terminal(Self.query(path: path, middleRows: rows, home: home, shape: shape))
        }
    }

    /// The path, or its error as a query error.
    static func resolvedPath(_ resolved: Result<ThroughPath, SchemaError>) throws -> ThroughPath {
        switch resolved {
        case .success(let found): return found
        case .failure(let error): throw QueryError(relation: error)
        }
    }

    /// The intermediate rows' query: those belonging to the owner.
    static func middleQuery(_ path: ThroughPath, ownerID: ModelValue) -> StoreQuery {
        StoreQuery(schema: path.middle, predicate: .compare(column: path.ownerForeignKey, .equal, ownerID))
    }

    /// The targets' query for the intermediate rows read (nil: an unsaved owner, none).
    static func query(
        path: ThroughPath, middleRows: [[ModelValue]]?, home: (any PersistenceAdapter)?,
        shape: [@Sendable (Query<Target>) -> Query<Target>]
    ) -> Query<Target> {
        var query = Query<Target>()
        if let home { query.adapter = home }
        if let middleRows {
            switch path.hop {
            case .children(let foreignKey):
                query.predicate = .isIn(column: foreignKey, middleRows.map { $0[0] })
            case .parents(let foreignKey):
                var seen = Set<ModelValue>()
                let ids = middleRows.map { $0[foreignKey] }.filter { !$0.isNull && seen.insert($0).inserted }
                query.predicate = .isIn(column: 0, ids)
            }
        } else {
            query.predicate = .or([])
        }
        for step in shape { query = step(query) }
        return query
    }

    private func chained(_ step: @escaping @Sendable (Query<Target>) -> Query<Target>) -> Through {
        var copy = self
        copy.shape.append(step)
        return copy
    }

    // MARK: Reading (throws: runs the queries)

    /// Every target, in store order unless ordered.
    public func all() throws -> [Target] { try querySteps { try $0.recordsSteps() }.run() }
    /// How many targets there are.
    public func count() throws -> Int { try querySteps { try $0.countSteps() }.run() }
    /// Whether there is any target.
    public func exists() throws -> Bool { try querySteps { try $0.existsSteps() }.run() }
    /// The first target.
    public func first() throws -> Target? { try querySteps { try $0.firstSteps(1) }.run().first }

    // MARK: Chaining (lazy: no store access)

    /// The targets matching a condition.
    public func `where`(_ condition: QueryCondition<Target>) -> Through { chained { $0.where(condition) } }
    /// The targets sorted by a column.
    public func order(by column: String, _ direction: SortDirection = .ascending) -> Through {
        chained { $0.order(by: column, direction) }
    }
    /// The targets sorted by a key path.
    public func order<V>(by keyPath: KeyPath<Target, V> & Sendable, _ direction: SortDirection = .ascending) -> Through {
        chained { $0.order(by: keyPath, direction) }
    }
    /// At most `count` targets.
    public func limit(_ count: Int) -> Through { chained { $0.limit(count) } }
}
