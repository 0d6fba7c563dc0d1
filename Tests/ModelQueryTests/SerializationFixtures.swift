import ArrayAdapter
import Foundation
import ModelCore
import ModelQuery

/// Every column type, default mapping (stored names, ISO 8601 dates, explicit nulls).
final class WireSample: Model {
    @Column var name = ""
    @Column var count: Int = 0
    @Column var big: Int64 = 0
    @Column var ratio: Double = 0
    @Column var enabled = false
    @Column var made: Date?
    @Column var serial: UUID?
    @Column var payload: Data?
    @Column var tags: [String] = []
    @Column var stamps: [Date] = []
    @Column var settings: [String: ModelValue] = [:]
    @Column var note: String?
    @Column(default: 5) var level: Int
    init() {}
}

/// The same columns with another date strategy (one mapping per model type).
final class WireSampleSeconds: Model {
    @Column var made: Date?
    @Column var stamps: [Date] = []
    init() {}
    static var jsonMapping: JSONMapping<WireSampleSeconds> { JSONMapping(dates: .secondsSince1970) }
}

final class WireSampleMillis: Model {
    @Column var made: Date?
    @Column var stamps: [Date] = []
    init() {}
    static var jsonMapping: JSONMapping<WireSampleMillis> { JSONMapping(dates: .millisecondsSince1970) }
}

/// Explicit keys, an exclusion, a transformer, a key case and nested children.
final class WireTeam: Model {
    @Column var name = ""
    @Column var apiToken = ""
    @Column var foundedAt: Date?
    @Column var level: Int = 1
    @HasMany var players: Children<WirePlayer>
    init() {}

    static var jsonMapping: JSONMapping<WireTeam> {
        JSONMapping(keyCase: .upperCamelCase, dates: .secondsSince1970)
            .key("TeamName", for: \.name)
            .excluding(\.apiToken)
            .transforming(\.level, with: .lookup([1: "amateur", 2: "pro"]))
            .nesting("players")
    }
}

/// Omits nils, nests its parent (a cycle with WireTeam), camel-case keys.
final class WirePlayer: Model {
    @Column var name = ""
    @Column var bornAt: Date?
    @BelongsTo var team: WireTeam?
    init() {}

    static var jsonMapping: JSONMapping<WirePlayer> {
        JSONMapping(keyCase: .lowerCamelCase, nulls: .omit).nesting("team")
    }
}

final class WireAuthor: Model {
    @Column var name = ""
    @HasMany var books: Children<WireBook>
    @HasOne var profile: WireProfile?
    init() {}

    static var jsonMapping: JSONMapping<WireAuthor> { JSONMapping().nesting("books").nesting("profile", as: "bio_page") }
}

final class WireBook: Model {
    @Column var title = ""
    @BelongsTo var author: WireAuthor?
    init() {}

    static var jsonMapping: JSONMapping<WireBook> { JSONMapping().nesting("author") }
}

final class WireProfile: Model {
    @Column var bio = ""
    @BelongsTo var author: WireAuthor?
    init() {}
}

/// Strict reading, hooks, and a non-optional column without a default.
final class WireStrict: Model {
    @Column var title = ""
    @Column var count: Int = 0
    @Column var score: Double = 0
    init() {}

    static var jsonMapping: JSONMapping<WireStrict> {
        JSONMapping(unknownKeys: .reject)
            .beforeDecoding { dictionary in
                if let legacy = dictionary.removeValue(forKey: "legacy_title") { dictionary["title"] = legacy }
                if dictionary["title"] == "refuse" { throw HookRefusal() }
            }
            .afterEncoding { record, dictionary in
                dictionary["kind"] = "strict"
                dictionary["title_length"] = .int(Int64(record.title.count))
            }
    }
}

struct HookRefusal: Error {}

/// A mapping that names a column the model does not have.
final class WireBroken: Model {
    @Column var title = ""
    init() {}
    static var jsonMapping: JSONMapping<WireBroken> { JSONMapping().key("Title", for: "titel") }
}

/// Two columns under one key.
final class WireClash: Model {
    @Column var title = ""
    @Column var name = ""
    init() {}
    static var jsonMapping: JSONMapping<WireClash> { JSONMapping().key("name", for: \.title) }
}

/// A model with timestamps, for imports.
final class WireNote: Model {
    @Column var title = ""
    @Column var body = ""
    @Column var pinned = false
    @Column var createdAt: Date?
    @Column var updatedAt: Date?
    init() {}
}

/// Runs `body` with a fresh in-memory store as the default.
func withWireStore<R>(_ body: (ArrayAdapter) throws -> R) rethrows -> R {
    let store = ArrayAdapter()
    return try ModelStore.using(store) { try body(store) }
}

/// JSON text as a value, for comparing documents regardless of key order.
func jsonValue(_ data: Data) throws -> ModelValue {
    try JSONDecoder().decode(ModelValue.self, from: data)
}
