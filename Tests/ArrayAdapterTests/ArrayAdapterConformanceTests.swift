import AdapterConformance
import ArrayAdapter
import Synchronization
import Testing

/// ArrayAdapter runs the whole conformance suite (it does not persist: that group is
/// skipped and reported).
@Suite struct ArrayAdapterConformanceTests {
    static let suite = AdapterConformance(adapter: "ArrayAdapter") { ArrayAdapter() }

    @Test(arguments: ConformanceGroup.allCases) func conformance(_ group: ConformanceGroup) async {
        let report = await Self.suite.run([group])
        for failure in report.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(report.checked[group] ?? 0 > 0 || group == .persistence, "\(report)")
        #expect(group != .persistence || report.skipped.count == 1)
    }

    /// `removeStore` is handed each group's own store once the group has run, also when the
    /// group failed; a skipped group made none; a throw from it is a failure of the group.
    @Test func removeStoreEndsEveryGroupThatRan() async {
        struct Refused: Error {}
        let made = Mutex<[ObjectIdentifier]>([])
        let removed = Mutex<[ObjectIdentifier]>([])
        let suite = AdapterConformance(
            adapter: "ArrayAdapter",
            removeStore: { store in
                let count = removed.withLock { $0.append(ObjectIdentifier(store)); return $0.count }
                if count == 2 { throw Refused() }
            },
            makeStore: {
                let store = ArrayAdapter()
                made.withLock { $0.append(ObjectIdentifier(store)) }
                return store
            })
        let report = await suite.run([.crud, .persistence, .paging])
        #expect(made.withLock { $0 }.count == 2, "a store for crud and paging; persistence is skipped")
        #expect(removed.withLock { $0 } == made.withLock { $0 }, "each made store removed once, in order")
        #expect(report.failures.map(\.group) == [.paging])
        #expect(report.failures.first?.message.contains("removeStore threw Refused") == true)
        #expect(report.checked[.crud] ?? 0 > 0 && report.checked[.paging] ?? 0 > 0, "the groups still ran and count")

        // The synchronous run ends its groups the same way.
        removed.withLock { $0 = [] }
        made.withLock { $0 = [] }
        func runSynchronously() -> ConformanceReport { suite.run([.ids]) }
        let sync = runSynchronously()
        #expect(removed.withLock { $0 } == made.withLock { $0 } && made.withLock { $0 }.count == 1)
        #expect(sync.failures.isEmpty)
    }

    /// A group whose checks fail still has its store removed.
    @Test func aFailedGroupStillRemovesItsStore() async {
        let removed = Mutex(0)
        // A store closed before the group starts: every call is refused, the group fails.
        let suite = AdapterConformance(
            adapter: "ArrayAdapter", removeStore: { _ in removed.withLock { $0 += 1 } },
            makeStore: {
                let store = ArrayAdapter()
                try store.close()
                return store
            })
        let report = await suite.run([.crud])
        #expect(!report.failures.isEmpty, "the group fails")
        #expect(removed.withLock { $0 } == 1)
    }
}
