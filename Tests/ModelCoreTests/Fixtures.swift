import ArrayAdapter
import Foundation
import Testing

/// The MotionModel-style task used across the suites.
final class Task: Model {
    @Column var name: String = ""
    @Column var longName: String?
    @Column(default: "2012-09-15") var dueDate: Date?
    @Column var priority: Int = 0
    @Column var done: Bool = false
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}
    convenience init(name: String) {
        self.init()
        self.name = name
    }
}

/// Every column type, optional and not.
final class Everything: Model {
    @Column var string: String = "s"
    @Column(options: .text) var text: String?
    @Column var bool: Bool = false
    @Column var int: Int = 0
    @Column var int64: Int64 = 0
    @Column var int32: Int32 = 0
    @Column var double: Double = 0
    @Column var float: Float = 0
    @Column var date: Date = Date(timeIntervalSince1970: 0)
    @Column var data: Data = Data()
    @Column var uuid: UUID?
    @Column var tags: [String] = []
    @Column var values: [ModelValue] = []
    @Column var settings: [String: ModelValue] = [:]
    @Column var scores: [String: Int]?
    init() {}
}

final class Device: Model {
    typealias IDValue = UUID
    @Column var label: String = ""
    init() {}
}

final class Country: Model {
    typealias IDValue = String
    @Column var name: String = ""
    init() {}
}

/// A store per test: nothing leaks between parallel tests.
@discardableResult
func withStore<R>(_ body: (ArrayAdapter) throws -> R) rethrows -> R {
    let store = ArrayAdapter()
    return try ModelStore.using(store) { try body(store) }
}

/// A fixed, advanceable clock.
final class TestClock: @unchecked Sendable {
    // @unchecked Sendable: `now` is guarded by `lock`.
    private let lock = NSLock()
    private var now: Date
    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000.25)) { now = start }
    func read() -> Date { lock.withLock { now } }
    func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
}

struct MissingID: Error {}

/// The stored copy of a record (a fresh instance loaded by id).
func stored<M: Model>(_ record: M) throws -> M? {
    guard let id = record.id else { throw MissingID() }
    return try M.find(id)
}
