import ModelCore

/// Collects the checks one group makes (so the suite works under any test framework).
public final class ConformanceChecker {
    let group: ConformanceGroup
    /// The store under test (fresh for each group).
    public let store: any PersistenceAdapter
    let capabilities: AdapterCapabilities
    let limitations: AdapterLimitations
    let reopen: ((any PersistenceAdapter) throws -> any PersistenceAdapter)?
    private(set) var count = 0
    private(set) var failures: [ConformanceFailure] = []
    private(set) var skips: [String] = []

    init(
        group: ConformanceGroup, store: any PersistenceAdapter, capabilities: AdapterCapabilities,
        limitations: AdapterLimitations = [], reopen: ((any PersistenceAdapter) throws -> any PersistenceAdapter)?
    ) {
        self.limitations = limitations
        self.group = group
        self.store = store
        self.capabilities = capabilities
        self.reopen = reopen
    }

    /// Checks a condition.
    func expect(_ condition: Bool, _ message: @autoclosure () -> String, file: String = #fileID, line: Int = #line) {
        count += 1
        if !condition { failures.append(ConformanceFailure(group: group, message: message(), file: file, line: line)) }
    }

    /// Checks that two values are equal, printing both when not.
    func equal<T: Equatable>(
        _ actual: T, _ expected: T, _ what: @autoclosure () -> String, file: String = #fileID, line: Int = #line
    ) {
        expect(actual == expected, "\(what()): got \(actual), expected \(expected)", file: file, line: line)
    }

    /// Checks that `body` throws an error of type `E` (and, optionally, that it matches).
    @discardableResult
    func expectThrows<E: Error>(
        _ type: E.Type, _ what: @autoclosure () -> String, file: String = #fileID, line: Int = #line,
        _ body: () throws -> Void
    ) -> E? {
        do {
            try body()
            return thrown(nil, E.self, what(), file: file, line: line)
        } catch {
            return thrown(error, E.self, what(), file: file, line: line)
        }
    }

    /// Checks that async `body` throws an error of type `E`.
    @discardableResult
    func expectThrows<E: Error>(
        _ type: E.Type, _ what: @autoclosure () -> String, file: String = #fileID, line: Int = #line,
        _ body: () async throws -> Void
    ) async -> E? {
        do {
            try await body()
            return thrown(nil, E.self, what(), file: file, line: line)
        } catch {
            return thrown(error, E.self, what(), file: file, line: line)
        }
    }

    /// Counts `error` as the expected `E`, or records what happened instead.
    private func thrown<E: Error>(_ error: (any Error)?, _ type: E.Type, _ what: String, file: String, line: Int) -> E? {
        guard let error else {
            expect(false, "\(what): did not throw", file: file, line: line)
            return nil
        }
        guard let expected = error as? E else {
            expect(false, "\(what): threw \(error), expected \(E.self)", file: file, line: line)
            return nil
        }
        count += 1
        return expected
    }

    /// Whether rollback checks apply (the adapter has transactions); records a skip when not.
    func hasTransactions(_ what: String) -> Bool {
        guard limitations.contains(.noTransactions) else { return true }
        skip("\(what): the adapter has no transactions (.noTransactions)")
        return false
    }

    /// Runs checks on a query; with `.partialQueries`, a ``QueryNotExpressible`` error is
    /// recorded as a skip instead of a failure.
    func expressible(_ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as any QueryNotExpressible where limitations.contains(.partialQueries) && error.unexpressedPart != nil {
            skip("\(what): not expressible (\(error.unexpressedPart ?? ""))")
        }
    }

    /// Records that part of the group did not run, and why.
    func skip(_ reason: String) { skips.append(reason) }

    /// A failure from a group that threw where it should not have.
    func unexpected(_ error: any Error) {
        failures.append(ConformanceFailure(group: group, message: "unexpected error: \(error)", file: #fileID, line: #line))
    }
}
