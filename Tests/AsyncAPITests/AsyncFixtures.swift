import ArrayAdapter
import FileAdapter
import Foundation
import SQLiteAdapter


// A user module: it imports only the public products and compiles under Swift 6 strict
// concurrency with zero warnings.

final class Shelf: Model {
    @Column var name = ""
    @HasMany(dependent: .destroy) var books: Children<Book>
    init() {}
}

final class Book: Model {
    @Column var title = ""
    @Column var pages = 0
    @BelongsTo var shelf: Shelf?
    init() {}
}

/// One store of each adapter kind, in a fresh directory of ``directory``.
enum AsyncStores {
    static let kinds = ["array", "sqlite", "file"]

    /// Where this test process keeps its stores' files: one directory, removed when the
    /// process exits (the stores outlive their tests' scopes in tasks and observations).
    static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftmodel-async-\(UUID().uuidString)")
        atexit { try? FileManager.default.removeItem(at: AsyncStores.directory) }
        return url
    }()

    static func make(_ kind: String) throws -> any PersistenceAdapter {
        let directory = Self.directory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch kind {
        case "sqlite": return try SQLiteAdapter(path: directory.appendingPathComponent("db.sqlite").path)
        case "file":
            return try FileAdapter(
                file: directory.appendingPathComponent("store.archive"), models: [Shelf.self, Book.self, Card.self, Ticket.self, Desk.self, Lamp.self])
        default: return ArrayAdapter()
        }
    }

    /// A shelf with three books, saved synchronously.
    static func seed(_ store: any PersistenceAdapter) throws -> Shelf {
        let shelf = try Shelf.create(["name": "fiction"], in: store)
        for (title, pages) in [("Dune", 412), ("Emma", 474), ("Ubik", 202)] {
            try shelf.books.create(["title": .string(title), "pages": .int(Int64(pages))])
        }
        return shelf
    }
}

/// An adapter whose reads block until released: fills the blocking pool on demand.
final class GateAdapter: PersistenceAdapter {
    let base = ArrayAdapter()
    private let gate = DispatchSemaphore(value: 0)
    let reads = Guarded(0)
    let blocking = Guarded(false)
    let delay = Guarded(0.0)
    /// Store calls made on the main actor (its queue), and in all.
    let mainActorCalls = Guarded(0)
    let calls = Guarded(0)

    /// Lets `count` blocked reads go on.
    func release(_ count: Int) { for _ in 0..<count { gate.signal() } }

    /// Counts a store call, and whether it runs on the main actor.
    private func note() {
        calls.withLock { $0 += 1 }
        if MainQueueMark.isCurrent { mainActorCalls.withLock { $0 += 1 } }
    }

    private func read() {
        note()
        reads.withLock { $0 += 1 }
        if blocking.withLock({ $0 }) { gate.wait() }
        let seconds = delay.withLock { $0 }
        if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
    }

    func prepare(_ schema: ModelSchema) throws { try base.prepare(schema) }
    func close() throws { try base.close() }
    func insert(_ row: [ModelValue], into schema: ModelSchema) throws -> ModelValue {
        note()
        return try base.insert(row, into: schema)
    }
    func update(_ row: [ModelValue], changedColumns: [Int], in schema: ModelSchema) throws {
        note()
        try base.update(row, changedColumns: changedColumns, in: schema)
    }
    func delete(id: ModelValue, from schema: ModelSchema) throws -> Bool {
        note()
        return try base.delete(id: id, from: schema)
    }
    func find(id: ModelValue, in schema: ModelSchema) throws -> [ModelValue]? {
        read()
        return try base.find(id: id, in: schema)
    }
    func fetch(_ query: StoreQuery) throws -> [[ModelValue]] {
        read()
        return try base.fetch(query)
    }
    func count(_ query: StoreQuery) throws -> Int {
        read()
        return try base.count(query)
    }
    func delete(_ query: StoreQuery) throws -> Int { try base.delete(query) }
    func update(_ query: StoreQuery, set values: [Int: ModelValue]) throws -> Int { try base.update(query, set: values) }
    func aggregate(_ query: StoreQuery) throws -> [AggregateGroup] { try base.aggregate(query) }
    func withTransaction<R>(_ body: () throws -> R) throws -> R {
        note()
        return try base.withTransaction(body)
    }
}

/// What a SwiftUI view model does: async reads from the main actor, results kept there.
@MainActor final class ShelfViewModel {
    var titles: [String] = []
    var total = 0
    let store: any PersistenceAdapter

    init(store: any PersistenceAdapter) { self.store = store }

    func refresh() async throws {
        let books = try await Book.query(in: store).order(by: \.title).all()
        titles = books.map(\.title)
        total = try await Book.count(in: store)
    }
}

/// A validating model whose hooks log, and whose `beforeUpdate` can decline.
final class Card: Model, Validatable {
    @Column var word = ""
    var log: [String] = []
    var declines = false
    init() {}

    static func validations(_ v: inout Validations<Card>) {
        v.add(\.word, .presence, .uniqueness())
    }

    func beforeSave() throws -> Bool {
        log.append("beforeSave")
        return true
    }
    func beforeCreate() throws -> Bool {
        log.append("beforeCreate")
        return true
    }
    func beforeUpdate() throws -> Bool { !declines }
    func afterCreate() { log.append("afterCreate") }
    func afterSave() { log.append("afterSave") }
}

/// A thread-safe tally.
final class Tally: Sendable {
    private let count = Guarded(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A main-actor editor: creates and saves records it keeps.
@MainActor final class ShelfEditor {
    private var shelves: [Shelf] = []
    let store: any PersistenceAdapter
    var names: [String] { shelves.map(\.name) }

    init(store: any PersistenceAdapter) { self.store = store }

    func add(_ name: String) async throws {
        let shelf = Shelf()
        shelf.name = name
        try await shelf.save(to: store)
        shelves.append(shelf)
    }

    /// Renames and saves every shelf it keeps.
    func renameAll(to name: String) async throws {
        for shelf in shelves {
            shelf.name = name
            try await shelf.save()
        }
    }

    /// Whether any shelf it keeps has unsaved changes.
    var hasChanges: Bool { shelves.contains(where: \.isDirty) }

    func rename(to name: String) async throws {
        for shelf in shelves {
            shelf.name = name
            try await shelf.save()
        }
    }
}

/// A value behind an `NSLock`, shared between tasks and threads. (Not `Mutex`: on Linux
/// its futex-based lock is invisible to Thread Sanitizer, which then reports races.)
///
/// `@unchecked Sendable`: `value` is only touched while holding `lock`.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A unique code the store itself enforces, and timestamps a save sets.
final class Ticket: Model {
    @Column(options: .unique) var code = ""
    @Column var seat = 0
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}
}

/// An owner whose one child is staged (`desk.lamp = lamp`) and written by the desk's save.
final class Desk: Model {
    @Column var name = ""
    @HasOne(dependent: .destroy) var lamp: Lamp?
    init() {}
}

/// A child that must have a name: an invalid one fails its owner's save.
final class Lamp: Model, Validatable {
    @Column var name = ""
    @BelongsTo var desk: Desk?
    init() {}

    static func validations(_ v: inout Validations<Lamp>) { v.add(\.name, .presence) }
}

/// Marks the main queue, where the main actor runs: code running in the main actor's
/// isolation finds the mark. (`Thread.isMainThread` is no test of it on Linux: there the
/// main queue's jobs report false.)
enum MainQueueMark {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the calling code runs on the main queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
