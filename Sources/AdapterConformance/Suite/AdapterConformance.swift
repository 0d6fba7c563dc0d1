import Foundation
import ModelCore

/// The behaviour every ``PersistenceAdapter`` must share, as a runnable suite: give it a
/// way to make a fresh store, and it runs groups of checks (CRUD, ids, every column type,
/// every query operator, ordering, paging, aggregates, relations and delete rules, eager
/// loading, transactions, hooks, validations, notifications, persistence, concurrency)
/// and reports failures and explicit skips.
///
/// It does not depend on a test framework; turn failures into test issues yourself:
///
/// <!-- snippet: skip needs an adapter of your own; Docs/Testing.md compiles and runs the same test against one -->
/// ```swift
/// import AdapterConformance
/// import Testing
///
/// @Test(arguments: ConformanceGroup.allCases)
/// func conformance(_ group: ConformanceGroup) async throws {
///     let suite = AdapterConformance(adapter: "MyAdapter") { try MyAdapter(inMemory: true) }
///     let report = await suite.run([group])
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
    /// What the adapter cannot do by nature.
    public let limitations: AdapterLimitations
    let makeStore: @Sendable () throws -> any PersistenceAdapter
    let reopen: (@Sendable (any PersistenceAdapter) throws -> any PersistenceAdapter)?
    let removeStore: (@Sendable (any PersistenceAdapter) throws -> Void)?

    /// The `.unique` columns of the suite's models, by table name, for a server under test
    /// that must be told which fields to keep unique (the `uniqueness` group needs them
    /// enforced).
    public static var uniqueColumns: [String: Set<String>] { [ConformanceHandle.schema.tableName: ["handle"]] }

    /// The schemas of every model the suite stores, for a server under test that must
    /// serve them (ModelServer's `ModelResources.register(schema:)`).
    public static var modelSchemas: [ModelSchema] {
        [
            ConformanceSample.schema, ConformanceLimit.schema, ConformancePerson.schema, ConformanceIntItem.schema,
            ConformanceHandle.schema, ConformanceUUIDItem.schema, ConformanceStringItem.schema, ConformanceKeywords.schema,
            ConformanceOwner.schema, ConformancePet.schema, ConformanceToy.schema, ConformanceSticker.schema,
            ConformanceVisit.schema, ConformanceDebt.schema, ConformanceLicense.schema, ConformanceHooked.schema,
            ConformanceAccount.schema, ConformanceShelf.schema, ConformanceBox.schema, ConformanceBoxItem.schema,
            ConformanceBoxTag.schema, ConformanceBoxLock.schema, ConformanceLogLine.schema,
        ]
    }

    /// A suite for one adapter.
    ///
    /// - Parameters:
    ///   - capabilities: What the adapter supports; groups that need more are skipped and
    ///     reported.
    ///   - limitations: What the adapter cannot do by nature (an HTTP API has no
    ///     transactions); checks that need it are skipped and reported.
    ///   - reopen: For persistent adapters: closes `store` (or lets it go) and opens the
    ///     same data again in a new instance.
    ///   - removeStore: Called with the store `makeStore` made for a group once the group
    ///     has run (passed or failed): close it and delete what it left behind, such as its
    ///     files, so a test run leaves nothing in the temporary directory. A throw is a
    ///     failure of the group.
    ///   - makeStore: Makes a fresh, empty store; called once per group.
    public init(
        adapter: String, capabilities: AdapterCapabilities = [], limitations: AdapterLimitations = [],
        reopen: (@Sendable (any PersistenceAdapter) throws -> any PersistenceAdapter)? = nil,
        removeStore: (@Sendable (any PersistenceAdapter) throws -> Void)? = nil,
        makeStore: @escaping @Sendable () throws -> any PersistenceAdapter
    ) {
        self.adapter = adapter
        self.capabilities = capabilities
        self.limitations = limitations
        self.makeStore = makeStore
        self.reopen = reopen
        self.removeStore = removeStore
    }

    /// Runs `groups` (all by default), each on a fresh store. Async groups
    /// (``ConformanceGroup/isAsync``) are skipped: run them with the async `run(_:)`.
    public func run(_ groups: [ConformanceGroup] = ConformanceGroup.allCases) -> ConformanceReport {
        var report = ConformanceReport(adapter: adapter)
        for group in groups {
            if group.isAsync {
                report.skipped.append((group, "an async group: run it with `await suite.run(_:)`"))
                continue
            }
            guard let checker = prepare(group, &report) else { continue }
            do {
                try ModelStore.using(checker.store) { try Self.body(of: group)(checker) }
            } catch {
                checker.unexpected(error)
            }
            record(checker, group, &report)
        }
        return report
    }

    /// Runs `groups` (all by default), each on a fresh store, async groups included.
    public func run(_ groups: [ConformanceGroup] = ConformanceGroup.allCases) async -> ConformanceReport {
        var report = ConformanceReport(adapter: adapter)
        for group in groups {
            guard let checker = prepare(group, &report) else { continue }
            do {
                switch group {
                case .asyncAPI, .observation:
                    // On a thread of their own too: the checks also make blocking calls, and a
                    // server under test in the same process (Hummingbird) answers on the
                    // cooperative pool.
                    let executor = ThreadTaskExecutor(ownThreadNamed: "AdapterConformance.checks")
                    defer { executor.finish() }
                    try await withTaskExecutorPreference(executor) {
                        try await ModelStore.using(checker.store) {
                            if group == .asyncAPI { try await AsyncChecks.asyncAPI(checker) } else { try await AsyncChecks.observation(checker) }
                        }
                    }
                default:
                    // Synchronous checks block on the store: on a thread of their own, never
                    // one of the cooperative pool's (a few, shared with every async test).
                    try await Self.onOwnThread(group, checker)
                }
            } catch {
                checker.unexpected(error)
            }
            record(checker, group, &report)
        }
        return report
    }

    /// Runs the synchronous checks of `group` on a new thread and suspends until they end.
    /// The checker goes back through the hand-off's lock, so everything the thread wrote
    /// happens-before what the task reads next (as Thread Sanitizer sees it too).
    private static func onOwnThread(_ group: ConformanceGroup, _ checker: ConformanceChecker) async throws {
        let handoff = CheckerHandoff(checker)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                handoff.lock.withLock {
                    handoff.outcome = Result { try ModelStore.using(handoff.checker.store) { try body(of: group)(handoff.checker) } }
                }
                continuation.resume()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        try handoff.lock.withLock { try handoff.outcome.get() }
    }

    /// The checker for `group` on a fresh store, or nil when the group is skipped or the
    /// store cannot be made (noted in `report`).
    private func prepare(_ group: ConformanceGroup, _ report: inout ConformanceReport) -> ConformanceChecker? {
        if group == .persistence, !capabilities.contains(.persistence) || reopen == nil {
            report.skipped.append((group, "the adapter does not persist (no .persistence capability and reopen closure)"))
            return nil
        }
        if group == .history, limitations.contains(.remoteHistory) {
            report.skipped.append((group, "the server keeps the rows and their history (.remoteHistory)"))
            return nil
        }
        if group == .transactions, limitations.contains(.noTransactions) {
            report.skipped.append((group, "the adapter has no transactions (.noTransactions): nothing to roll back"))
            return nil
        }
        do {
            return ConformanceChecker(
                group: group, store: try makeStore(), capabilities: capabilities, limitations: limitations, reopen: reopen)
        } catch {
            report.failures.append(ConformanceFailure(group: group, message: "makeStore threw \(error)", file: #fileID, line: #line))
            return nil
        }
    }

    /// Ends a group: adds what the checker saw to `report`, then removes the group's store
    /// (`removeStore`), a throw there being one more failure of the group.
    private func record(_ checker: ConformanceChecker, _ group: ConformanceGroup, _ report: inout ConformanceReport) {
        report.checked[group] = checker.count
        report.failures += checker.failures
        report.skipped += checker.skips.map { (group, $0) }
        guard let removeStore else { return }
        do {
            try removeStore(checker.store)
        } catch {
            report.failures.append(ConformanceFailure(group: group, message: "removeStore threw \(error)", file: #fileID, line: #line))
        }
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
        case .contexts: ContextChecks.contexts
        case .uniqueness: StoreErrorChecks.uniqueness
        case .closing: StoreErrorChecks.closing
        case .history: HistoryChecks.history
        case .asyncAPI, .observation: { _ in }  // async: see the async `run(_:)`
        }
    }
}

/// A checker handed to the thread that runs its group: `@unchecked Sendable` because the
/// thread uses the checker and `outcome` only while holding `lock`, and the awaiting task
/// reads them again only after taking `lock` once the thread is done.
private final class CheckerHandoff: @unchecked Sendable {
    let checker: ConformanceChecker
    /// Held by the thread while it runs the checks, and by the task when it reads the outcome.
    let lock = NSLock()
    var outcome: Result<Void, any Error> = .success(())
    init(_ checker: ConformanceChecker) { self.checker = checker }
}
