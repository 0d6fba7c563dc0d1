/// How a model's records become JSON objects (and dictionaries) and back: key names,
/// excluded columns, dates, nulls, value transformers, nested relations and hooks.
///
/// Declare it once per model; it is checked and compiled on first use, then cached.
///
/// ```swift
/// final class Team: Model {
///     @Column var name = ""
///     @Column var apiToken = ""
///     @Column var foundedAt: Date?
///     @HasMany var players: Children<Player>
///     init() {}
///
///     static var jsonMapping: JSONMapping<Team> {
///         JSONMapping(keyCase: .lowerCamelCase, dates: .secondsSince1970)
///             .key("TeamName", for: \.name)          // "TeamName" ↔ name
///             .excluding(\.apiToken)                  // never written, never read
///             .nesting("players")                     // children as a nested array
///     }
/// }
///
/// try team.dictionaryValue()   // ["id": 1, "TeamName": "Rovers", "foundedAt": 1.3e9, "players": [...]]
/// ```
///
/// Keys not mapped explicitly follow ``keyCase``. Unmapped relations are left out, except
/// that a `@BelongsTo` always has its foreign key column (`"team_id": 1`) unless excluded
/// or nested.
public struct JSONMapping<M: ModelProtocol>: Sendable {
    /// How keys of columns (and nested relations) without an explicit key are written.
    public var keyCase: JSONKeyCase
    /// How dates are written, and how numbers are read as dates.
    public var dates: JSONDateStrategy
    /// Whether nil values are written as `null` or left out.
    public var nulls: JSONNullStrategy
    /// What reading does with keys that match nothing.
    public var unknownKeys: JSONUnknownKeyStrategy

    package enum ColumnReference: Sendable {
        case name(String)
        case keyPath(PartialKeyPath<M> & Sendable)
    }

    package var keys: [(ColumnReference, String)] = []
    package var excluded: [ColumnReference] = []
    package var transformers: [(ColumnReference, JSONTransformer)] = []
    package var relations: [(String, String?)] = []
    package var beforeDecodingHooks: [@Sendable (inout [String: ModelValue]) throws -> Void] = []
    package var afterEncodingHooks: [@Sendable (M, inout [String: ModelValue]) throws -> Void] = []

    /// A mapping; by default keys are the stored column names (`due_date`), dates ISO 8601
    /// with fractional seconds, nils written as `null`, unknown keys ignored.
    public init(
        keyCase: JSONKeyCase = .columnName, dates: JSONDateStrategy = .iso8601, nulls: JSONNullStrategy = .explicit,
        unknownKeys: JSONUnknownKeyStrategy = .ignore
    ) {
        self.keyCase = keyCase
        self.dates = dates
        self.nulls = nulls
        self.unknownKeys = unknownKeys
    }

    /// Writes and reads the column `column` (stored or property name) under `key`.
    public func key(_ key: String, for column: String) -> Self {
        var copy = self
        copy.keys.append((.name(column), key))
        return copy
    }

    /// Writes and reads the column behind `keyPath` under `key`.
    public func key<T>(_ key: String, for keyPath: KeyPath<M, T> & Sendable) -> Self {
        var copy = self
        copy.keys.append((.keyPath(keyPath), key))
        return copy
    }

    /// Leaves columns (stored or property names) out of both writing and reading.
    public func excluding(_ columns: String...) -> Self {
        var copy = self
        copy.excluded += columns.map { .name($0) }
        return copy
    }

    /// Leaves the columns behind key paths out of both writing and reading.
    public func excluding(_ keyPaths: (PartialKeyPath<M> & Sendable)...) -> Self {
        var copy = self
        copy.excluded += keyPaths.map { .keyPath($0) }
        return copy
    }

    /// Converts a column's values on the way out and in (see ``JSONTransformer``).
    public func transforming(_ column: String, with transformer: JSONTransformer) -> Self {
        var copy = self
        copy.transformers.append((.name(column), transformer))
        return copy
    }

    /// Converts the values of the column behind `keyPath` on the way out and in.
    public func transforming<T>(_ keyPath: KeyPath<M, T> & Sendable, with transformer: JSONTransformer) -> Self {
        var copy = self
        copy.transformers.append((.keyPath(keyPath), transformer))
        return copy
    }

    /// Writes the relation declared by the property `relation` as nested JSON: a
    /// `@BelongsTo` parent as an object (instead of its foreign key), `@HasMany` children
    /// as an array, a `@HasOne` child as an object or `null`. Reading accepts the same.
    ///
    /// Records met again in the same document (cycles, shared parents) are written as
    /// references, `{"$ref": {"model": "Author", "id": 1}}`, which read back as the same
    /// instance.
    public func nesting(_ relation: String, as key: String? = nil) -> Self {
        var copy = self
        copy.relations.append((relation, key))
        return copy
    }

    /// Adjusts the raw dictionary before it is read (rename legacy keys, unwrap envelopes).
    public func beforeDecoding(_ hook: @escaping @Sendable (inout [String: ModelValue]) throws -> Void) -> Self {
        var copy = self
        copy.beforeDecodingHooks.append(hook)
        return copy
    }

    /// Adjusts the dictionary written for a record (add computed keys, a type tag).
    public func afterEncoding(_ hook: @escaping @Sendable (M, inout [String: ModelValue]) throws -> Void) -> Self {
        var copy = self
        copy.afterEncodingHooks.append(hook)
        return copy
    }
}

/// How JSON keys are derived from columns and relations that have no explicit key.
public enum JSONKeyCase: Sendable {
    /// The stored column name (`due_date`, `team_id`); relations by snake_case property name.
    case columnName
    /// The Swift property name (`dueDate`, `team`… a `@BelongsTo`'s key column `teamID`
    /// stays its column name camel-cased).
    case propertyName
    /// `due_date`.
    case snakeCase
    /// `dueDate`.
    case lowerCamelCase
    /// `DueDate`.
    case upperCamelCase
    /// Your function of the stored column name.
    case custom(@Sendable (String) -> String)
}

/// How dates are written, and how JSON numbers are read as dates.
public enum JSONDateStrategy: Sendable, Hashable {
    /// ISO 8601 in UTC with fractional seconds: `2012-04-23T18:25:43.511Z` (at least
    /// milliseconds, up to microseconds). Reading accepts every form the casting rules do.
    case iso8601
    /// Seconds since 1970 as a JSON number (exact: the double is written as is).
    case secondsSince1970
    /// Whole milliseconds since 1970 as a JSON integer (rounded to the millisecond).
    case millisecondsSince1970
}

/// Whether nil values are written.
public enum JSONNullStrategy: Sendable, Hashable {
    /// `"due_date": null`. Reading distinguishes it from a missing key: `null` sets nil,
    /// a missing key leaves the column alone.
    case explicit
    /// Nil columns are left out.
    case omit
}

/// What reading does with keys that are neither mapped columns nor nested relations.
public enum JSONUnknownKeyStrategy: Sendable, Hashable {
    /// Ignores them (web APIs often send more than a model keeps).
    case ignore
    /// Throws ``SerializationError`` `.unknownKey`.
    case reject
}

/// Converts one column's values between the stored form and the JSON form.
///
/// ```swift
/// final class Invoice: Model {
///     @Column var priority = 2
///     @Column var cents: Int64 = 0
///     init() {}
///
///     static var jsonMapping: JSONMapping<Invoice> {
///         JSONMapping()
///             // A priority stored as 1…3, sent as "low" / "normal" / "high":
///             .transforming(\.priority, with: .lookup([1: "low", 2: "normal", 3: "high"]))
///             // Cents stored, decimal amounts sent:
///             .transforming(\.cents, with: JSONTransformer(
///                 encode: { .double(Double($0.intValue ?? 0) / 100) },
///                 decode: { .int(Int64((($0.doubleValue ?? 0) * 100).rounded())) }))
///     }
/// }
/// ```
///
/// `encode` receives the stored value and returns a JSON-ready value; `decode` receives
/// the JSON value and returns something the column's casting rules accept. Neither sees
/// `null` unless the column holds nil or JSON sent `null`.
public struct JSONTransformer: Sendable {
    package let encode: @Sendable (ModelValue) throws -> ModelValue
    package let decode: @Sendable (ModelValue) throws -> ModelValue

    /// A transformer from two functions; throw to refuse a value.
    public init(
        encode: @escaping @Sendable (ModelValue) throws -> ModelValue,
        decode: @escaping @Sendable (ModelValue) throws -> ModelValue
    ) {
        self.encode = encode
        self.decode = decode
    }

    /// A two-way table: stored value → JSON value. Values not in the table are refused;
    /// nil stays nil.
    public static func lookup(_ table: [ModelValue: ModelValue]) -> JSONTransformer {
        var inverse: [ModelValue: ModelValue] = [:]
        for (stored, json) in table { inverse[json] = stored }
        let reverse = inverse
        return JSONTransformer(
            encode: { value in
                if value.isNull { return .null }
                guard let mapped = table[value] else { throw JSONTransformerError(value: value, known: Array(table.keys)) }
                return mapped
            },
            decode: { value in
                if value.isNull { return .null }
                guard let mapped = reverse[value] else { throw JSONTransformerError(value: value, known: Array(reverse.keys)) }
                return mapped
            })
    }
}

/// A value a ``JSONTransformer/lookup(_:)`` table does not contain.
public struct JSONTransformerError: Error, Sendable, CustomStringConvertible {
    /// The value.
    public let value: ModelValue
    /// The values the table knows.
    public let known: [ModelValue]

    public var description: String {
        "\(value) is not one of " + known.map(\.description).sorted().joined(separator: ", ")
    }
}

extension ModelProtocol {
    /// Default: ``JSONMapping`` with its defaults (stored column names, ISO 8601 dates,
    /// explicit nulls).
    public static var jsonMapping: JSONMapping<Self> { JSONMapping() }
}
