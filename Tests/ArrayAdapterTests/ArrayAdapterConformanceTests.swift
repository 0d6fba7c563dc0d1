import AdapterConformance
import ArrayAdapter
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
}
