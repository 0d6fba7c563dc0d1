import Foundation
import ModelCore
import ModelQuery
import ModelSerialization
import ModelValidation

// The models the suite stores. Table names start with `conformance_` so a store shared
// with other tables is not disturbed.

/// Every column type.
final class ConformanceSample: Model {
    @Column var name: String = ""
    @Column(options: .text) var notes: String = ""
    @Column var count: Int = 0
    @Column var big: Int64 = 0
    @Column var ratio: Double = 0
    @Column var flag: Bool = false
    @Column var seen: Date = Date(timeIntervalSinceReferenceDate: 0)
    @Column var serial: UUID = UUID()
    @Column var blob: Data = Data()
    @Column var tags: [String] = []
    @Column var extra: [String: ModelValue] = [:]
    @Column var maybe: String?
    @Column var when: Date?
    @Column(default: 7) var level: Int?
    init() {}
}

/// The edges of the value types: a narrow integer, a required string, doubles and dates.
final class ConformanceLimit: Model {
    @Column var small: Int32 = 0
    @Column var required: String = ""
    @Column var ratio: Double = 0
    @Column var when: Date = Date(timeIntervalSince1970: 0)
    @Column var stamps: [Date] = []
    init() {}
}

/// The query fixture: nullable columns of each comparable kind.
final class ConformancePerson: Model {
    @Column var name: String = ""
    @Column var age: Int?
    @Column var city: String?
    @Column var score: Double = 0
    @Column var joined: Date?
    @Column var active: Bool = true
    init() {}

    /// name, age, city, score, active; ids 1...11 in this order.
    static let rows: [(String, Int?, String?, Double, Bool)] = [
        ("Ann", 34, "Paris", 8.5, true), ("Bob", 41, "Seattle", 6.0, true), ("cara", nil, "Paris", 9.25, false),
        ("Dan", 30, nil, 7.0, true), ("Eve", 40, "paris", 6.0, true), ("Finn", 25, "Berlin", 9.25, true),
        ("Gus", 35, "Paris", 5.5, false), ("Ann Marie", 52, "Seattle", 4.0, true),
        ("100% _real_ \\o/", 0, "Pa%is", -1.5, false), ("Ünïcødé 🐶", 77, "Zürich", 1e10, true),
        ("'; DROP TABLE conformance_person; --", 18, "\"quoted\"", 0, true),
    ]

    static func seed() throws {
        for (k, row) in rows.enumerated() {
            let person = ConformancePerson()
            (person.name, person.age, person.city, person.score, person.active) = row
            person.joined = k == 4 ? nil : Date(timeIntervalSince1970: 1_000_000 + Double(k % 5) * 86_400.25)
            try person.save()
        }
    }
}

final class ConformanceIntItem: Model {
    typealias IDValue = Int
    @Column var label: String = ""
    init() {}
}

/// A `.unique` column, optional so that nulls (which never collide) can be stored twice.
final class ConformanceHandle: Model {
    @Column(options: .unique) var handle: String?
    @Column var label: String = ""
    init() {}
}

final class ConformanceUUIDItem: Model {
    typealias IDValue = UUID
    @Column var label: String = ""
    init() {}
}

final class ConformanceStringItem: Model {
    typealias IDValue = String
    @Column var label: String = ""
    init() {}
}

/// Column names that are SQL keywords.
final class ConformanceKeywords: Model {
    @Column var select: String = ""
    @Column var order: Int = 0
    @Column var group: String?
    @Column var `where`: Double = 0
    @Column var type: String?
    @Column("description") var summary: String?
    init() {}
}

// MARK: - Relations: an owner with one relation per delete rule

final class ConformanceOwner: Model {
    @Column var name: String = ""
    @HasMany(dependent: .destroy) var pets: Children<ConformancePet>
    @HasMany(dependent: .delete) var stickers: Children<ConformanceSticker>
    @HasMany var visits: Children<ConformanceVisit>
    @HasMany(dependent: .restrict) var debts: Children<ConformanceDebt>
    @HasOne(dependent: .destroy) var license: ConformanceLicense?
    @HasManyThrough(\ConformanceOwner.pets, \ConformancePet.toys) var toys: Through<ConformanceToy>
    init() {}
}

final class ConformancePet: Model {
    @Column var name: String = ""
    @BelongsTo var owner: ConformanceOwner?
    @HasMany(dependent: .destroy) var toys: Children<ConformanceToy>
    static let destroyed = HookCounter()
    func afterDestroy() { Self.destroyed.increment() }
    init() {}
}

final class ConformanceToy: Model {
    @Column var label: String = ""
    @BelongsTo var pet: ConformancePet?
    init() {}
}

final class ConformanceSticker: Model {
    @Column var text: String = ""
    @BelongsTo var owner: ConformanceOwner?
    init() {}
}

final class ConformanceVisit: Model {
    @Column var day: Int = 0
    @BelongsTo var owner: ConformanceOwner?
    init() {}
}

final class ConformanceDebt: Model {
    @Column var amount: Double = 0
    @BelongsTo var owner: ConformanceOwner?
    init() {}
}

final class ConformanceLicense: Model {
    @Column var number: String = ""
    @BelongsTo var owner: ConformanceOwner?
    init() {}
}

// MARK: - Lifecycle

/// Records its hooks; declines what it is told to.
final class ConformanceHooked: Model {
    @Column var name: String = ""
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    var log: [String] = []
    var decline: Set<String> = []

    private func before(_ hook: String) -> Bool {
        log.append(hook)
        return !decline.contains(hook)
    }
    func beforeValidation() -> Bool { before("beforeValidation") }
    func beforeSave() -> Bool { before("beforeSave") }
    func beforeCreate() -> Bool { before("beforeCreate") }
    func beforeUpdate() -> Bool { before("beforeUpdate") }
    func beforeDelete() -> Bool { before("beforeDelete") }
    func beforeDestroy() -> Bool { before("beforeDestroy") }
    func afterSave() { log.append("afterSave") }
    func afterCreate() { log.append("afterCreate") }
    func afterUpdate() { log.append("afterUpdate") }
    func afterDelete() { log.append("afterDelete") }
    func afterDestroy() { log.append("afterDestroy") }
    init() {}
}

/// Validated on save, with a store-backed uniqueness rule.
final class ConformanceAccount: Model, Validatable {
    @Column var email: String = ""
    @Column var team: String?
    @Column var age: Int = 0
    init() {}

    static func validations(_ v: inout Validations<ConformanceAccount>) {
        v.add(\.email, .presence, .email, .uniqueness(scope: ["team"], caseSensitive: false))
        v.add(\.age, .numericality(in: 0...150))
    }
}

/// A `dependent: .delete` cascade over children that declare rules of their own.
final class ConformanceShelf: Model {
    @Column var name: String = ""
    @HasMany(dependent: .delete) var boxes: Children<ConformanceBox>
    init() {}
}

final class ConformanceBox: Model {
    @Column var name: String = ""
    @BelongsTo var shelf: ConformanceShelf?
    @HasMany(dependent: .destroy) var items: Children<ConformanceBoxItem>
    @HasMany var tags: Children<ConformanceBoxTag>
    @HasMany(dependent: .restrict) var locks: Children<ConformanceBoxLock>
    init() {}
}

final class ConformanceBoxItem: Model {
    @Column var name: String = ""
    @BelongsTo var box: ConformanceBox?
    static let destroyed = HookCounter()
    func afterDestroy() { Self.destroyed.increment() }
    init() {}
}

final class ConformanceBoxTag: Model {
    @Column var name: String = ""
    @BelongsTo var box: ConformanceBox?
    init() {}
}

final class ConformanceBoxLock: Model {
    @Column var name: String = ""
    @BelongsTo var box: ConformanceBox?
    init() {}
}

/// Counts hook calls per thread: each group runs on one thread, so suites of several
/// adapters running in parallel never see each other's hooks.
final class HookCounter: Sendable {
    private let counts = Locked<[UInt: Int]>([:])

    func increment() {
        let thread = currentThreadID()
        counts.withLock { $0[thread, default: 0] += 1 }
    }

    /// The calls made on this thread so far.
    var value: Int {
        let thread = currentThreadID()
        return counts.withLock { $0[thread] ?? 0 }
    }
}

// MARK: - Contexts

/// A model that opted out of contexts: every load is a fresh instance.
final class ConformanceLogLine: Model {
    @Column var text: String = ""
    static var joinsContexts: Bool { false }
    init() {}
}

// MARK: - Change history

/// A model whose store keeps its change history (``ModelProtocol/keepsHistory``).
final class ConformanceJournaled: Model {
    static var keepsHistory: Bool { true }
    @Column var title: String = ""
    @Column var rank: Int = 0
    @Column var note: String?
    init() {}
}
