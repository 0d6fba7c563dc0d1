import ModelCore

/// The behaviour every ``PersistenceAdapter`` must share, as a runnable suite: give it a
/// way to make a fresh store, and it runs groups of checks (CRUD, ids, every column type,
/// every query operator, ordering, paging, aggregates, relations and delete rules, eager
/// loading, transactions, hooks, validations, notifications, persistence, concurrency)
/// and reports failures and explicit skips.
///
/// It does not depend on a test framework; turn failures into test issues yourself:
///
/// ```swift
/// import AdapterConformance
/// import Testing
///
/// @Test(arguments: ConformanceGroup.allCases)
/// func conformance(_ group: ConformanceGroup) throws {
///     let suite = AdapterConformance(adapter: "MyAdapter") { try MyAdapter(inMemory: true) }
///     let report = suite.run([group])
///     for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
/// }
/// ```
///
/// See `Docs/Testing.md`.
public struct AdapterConformance: Sendable {
    /// The adapter's name, for reports.
    public let adapter: String
    /// What the adapter can do.
    public let capabilities: AdapterCapabilities
    let makeStore: @Sendable () throws -> any PersistenceAdapter
    let reopen: (@Sendable (any PersistenceAdapter) throws -> any PersistenceAdapter)?

    /// A suite for one adapter.
    ///
    /// - Parameters:
    ///   - capabilities: What the adapter supports; groups that need more are skipped and
    ///     reported.
    ///   - reopen: For persistent adapters: closes `store` (or lets it go) and opens the
    ///     same data again in a new instance.
    ///   - makeStore: Makes a fresh, empty store; called once per group.
    public init(
        adapter: String, capabilities: AdapterCapabilities = [],
        reopen: (@Sendable (any PersistenceAdapter) throws -> any PersistenceAdapter)? = nil,
        makeStore: @escaping @Sendable () throws -> any PersistenceAdapter
    ) {
        self.adapter = adapter
        self.capabilities = capabilities
        self.makeStore = makeStore
        self.reopen = reopen
    }

    /// Runs `groups` (all by default), each on a fresh store.
    public func run(_ groups: [ConformanceGroup] = ConformanceGroup.allCases) -> ConformanceReport {
        var report = ConformanceReport(adapter: adapter)
        for group in groups {
            if group == .persistence, !capabilities.contains(.persistence) || reopen == nil {
                report.skipped.append((group, "the adapter does not persist (no .persistence capability and reopen closure)"))
                continue
            }
            let store: any PersistenceAdapter
            do {
                store = try makeStore()
            } catch {
                report.failures.append(
                    ConformanceFailure(group: group, message: "makeStore threw \(error)", file: #fileID, line: #line))
                continue
            }
            let checker = ConformanceChecker(group: group, store: store, capabilities: capabilities, reopen: reopen)
            do {
                try ModelStore.using(store) { try Self.body(of: group)(checker) }
            } catch {
                checker.unexpected(error)
            }
            report.checked[group] = checker.count
            report.failures += checker.failures
            report.skipped += checker.skips.map { (group, $0) }
        }
        return report
    }

    static func body(of group: ConformanceGroup) -> (ConformanceChecker) throws -> Void {
        switch group {
        case .crud: RecordChecks.crud
        case .ids: RecordChecks.ids
        case .roundTrip: RecordChecks.roundTrip
        case .hostileValues: RecordChecks.hostileValues
        case .limits: LimitChecks.limits
        case .operators: QueryChecks.operators
        case .ordering: QueryChecks.ordering
        case .paging: QueryChecks.paging
        case .aggregates: QueryChecks.aggregates
        case .relations: RelationChecks.relations
        case .eagerLoading: RelationChecks.eagerLoading
        case .transactions: LifecycleChecks.transactions
        case .hooks: LifecycleChecks.hooks
        case .writesByID: ByIDChecks.writesByID
        case .validations: LifecycleChecks.validations
        case .notifications: LifecycleChecks.notifications
        case .persistence: StoreChecks.persistence
        case .concurrency: StoreChecks.concurrency
        }
    }
}
