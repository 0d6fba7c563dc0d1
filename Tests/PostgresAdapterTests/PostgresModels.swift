import Foundation
import PostgresAdapter

/// Every column type, for the schema and round-trip tests.
final class PgGadget: Model {
    @Column var name: String = ""
    @Column var count: Int = 0
    @Column var ratio: Double = 0
    @Column var enabled: Bool = false
    @Column var made: Date = Date(timeIntervalSinceReferenceDate: 0)
    @Column var serial: UUID = UUID()
    @Column var payload: Data = Data()
    @Column var tags: [String] = []
    @Column var note: String?
    @Column(default: 7) var level: Int?
    @Column(options: .unique) var code: String?
    init() {}
}

/// Shelves own books (destroyed with them); books restrict deleting while loaned.
final class PgShelf: Model {
    @Column var label: String = ""
    @HasMany(dependent: .destroy) var books: Children<PgBook>
    init() {}
}

final class PgBook: Model {
    @Column var title: String = ""
    @BelongsTo var shelf: PgShelf?
    init() {}
}

/// Version 1 and 2 of one table, for additive migration.
final class PgMemoV1: Model {
    static let tableName = "memo"
    @Column var title: String = ""
    init() {}
}

final class PgMemoV2: Model {
    static let tableName = "memo"
    @Column var title: String = ""
    @Column var body: String = "(empty)"
    @Column var priority: Int = 3
    @Column(options: .indexed) var tag: String?
    init() {}
}

/// Accounts for the transfer soak: the total never changes.
final class PgAccount: Model {
    @Column var owner: String = ""
    @Column var balance: Int = 0
    init() {}
}

/// Numbers another tool stored as `numeric`.
final class PgNumbers: Model {
    static let tableName = "numbers"
    @Column var ratio: Double = 0
    @Column var count: Int = 0
    init() {}
}

/// Timestamps a save sets and a unique code the database enforces.
final class PgTicket: Model {
    @Column(options: .unique) var code: String = ""
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}
}
