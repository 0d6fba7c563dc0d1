import Foundation

/// A record's object read from a `Decoder` and written to an `Encoder` through one keyed
/// container, each value encoded as the primitive it is.
///
/// Writing: encoding each ``ModelValue`` as a nested `Encodable` makes the encoder build a
/// container per value; a keyed container takes the primitives directly and gives the same
/// output.
///
/// Reading: `Decoder` cannot say what kind of value comes next, so ``ModelValue``'s own
/// `init(from:)` tries `Bool`, `Int64`, `Double`, `String`, array and object in turn. Each
/// miss throws a `DecodingError`, which is where most of the time went. With the column's
/// type known, the likely kind is tried first. The result is the value the generic order
/// gives (only kinds that cannot both succeed are reordered): a string column tries
/// `String` first, a number column `Int64` then `Double` (a double column without hooks
/// `Double` first), and a miss falls back to the generic order.
enum DirectCoding {
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The object `decoder` holds, or nil when it holds no object (the caller then reads
    /// it the generic way, which reports what it is).
    ///
    /// When nothing but the plan's own reading sees the object (no `beforeDecoding` hook,
    /// unknown keys ignored), only the keys the plan reads are looked up: asking a
    /// container for `allKeys` builds and casts an array of every key, which cost as much as
    /// decoding the values. Otherwise every key is read, for the hooks and the check.
    static func object(from decoder: any Decoder, plan: SerializationPlan) throws -> ModelValue? {
        guard let container = try? decoder.container(keyedBy: Key.self) else { return nil }
        // Without hooks or transformers, a value only meets the column's cast, which reads
        // a whole-number `Double` as the `Int64` would have read: a double column may then
        // try `Double` first.
        let castOnly = plan.beforeDecoding.isEmpty
        var dictionary: [String: ModelValue] = [:]
        if castOnly, plan.unknownKeys == .ignore {
            dictionary.reserveCapacity(plan.columns.count)
            for planned in plan.columns {
                let key = Key(stringValue: planned.key)
                let doubleFirst = planned.transformer == nil && planned.column.type == .double
                guard let value = try value(container, key, hint: planned.column.type, doubleFirst: doubleFirst) else { continue }
                dictionary[planned.key] = value
            }
            for name in plan.otherKeys {
                let key = Key(stringValue: name)
                guard let value = try value(container, key, hint: nil, doubleFirst: false) else { continue }
                dictionary[name] = value
            }
            return .dictionary(dictionary)
        }
        let keys = container.allKeys
        dictionary.reserveCapacity(keys.count)
        for key in keys {
            let hint = plan.columnByKey[key.stringValue].map { plan.columns[$0] }
            let doubleFirst = castOnly && hint?.transformer == nil && hint?.column.type == .double
            dictionary[key.stringValue] = try value(container, key, hint: hint?.column.type, doubleFirst: doubleFirst) ?? .null
        }
        return .dictionary(dictionary)
    }

    /// One value, or nil when the object has no such key: null, the kind the column's type
    /// makes likely (one lookup, through `decodeIfPresent`), or whatever the generic order
    /// finds.
    ///
    /// `decodeIfPresent` answers nil both for null and for a missing key; only then is the
    /// container asked whether it has the key (asking first, for every key, cost about 800
    /// instructions a value: it hashes the key's string again).
    private static func value(
        _ container: KeyedDecodingContainer<Key>, _ key: Key, hint: ColumnType?, doubleFirst: Bool
    ) throws -> ModelValue? {
        if doubleFirst, let double = read({ try container.decodeIfPresent(Double.self, forKey: key) }) {
            return double.map(ModelValue.double) ?? nullUnlessMissing(container, key)
        }
        switch hint {
        case .string, .text, .date, .uuid, .data:
            if let string = read({ try container.decodeIfPresent(String.self, forKey: key) }) {
                return string.map(ModelValue.string) ?? nullUnlessMissing(container, key)
            }
        case .int, .double:
            if let int = read({ try container.decodeIfPresent(Int64.self, forKey: key) }) {
                return int.map(ModelValue.int) ?? nullUnlessMissing(container, key)
            }
            if let double = try? container.decode(Double.self, forKey: key) { return .double(double) }
        case .bool:
            if let bool = read({ try container.decodeIfPresent(Bool.self, forKey: key) }) {
                return bool.map(ModelValue.bool) ?? nullUnlessMissing(container, key)
            }
        case .array, .dictionary, nil:
            guard container.contains(key) else { return nil }
            if try container.decodeNil(forKey: key) { return .null }
        }
        // A value of another kind than the likely one (`decodeIfPresent` threw): the key is there.
        return try container.decode(ModelValue.self, forKey: key)
    }

    /// Null when the object has `key` (its value is null), nil when it has not.
    private static func nullUnlessMissing(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> ModelValue? {
        container.contains(key) ? .null : nil
    }

    /// What `body` read — `.some(nil)` for null — or nil when it threw (another kind of
    /// value). (`try?` would flatten the two nils into one.)
    private static func read<T>(_ body: () throws -> T?) -> T?? {
        do { return .some(try body()) } catch { return .none }
    }

    /// Writes an object as ``ModelValue/encode(to:)`` writes `.dictionary(dictionary)`.
    static func encode(_ dictionary: [String: ModelValue], to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in dictionary {
            let key = Key(stringValue: name)
            switch value {
            case .null: try container.encodeNil(forKey: key)
            case .bool(let b): try container.encode(b, forKey: key)
            case .int(let i): try container.encode(i, forKey: key)
            case .double(let d): try container.encode(d, forKey: key)
            case .string(let s): try container.encode(s, forKey: key)
            case .date(let d): try container.encode(DateCodec.iso8601Milliseconds(d), forKey: key)
            case .uuid(let u): try container.encode(u.uuidString, forKey: key)
            case .data(let d): try container.encode(d.base64EncodedString(), forKey: key)
            case .array, .dictionary: try container.encode(value, forKey: key)
            }
        }
    }
}
