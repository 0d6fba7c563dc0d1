import Foundation
import ModelCore

/// The JSON document a context is written to: each model's columns, then every held
/// record with its state, current and saved values (kinds kept exactly), and links to
/// unsaved parents by position in the file.
struct ContextFile: Codable {
    static let formatName = "SwiftModel.ModelContext"

    var format = ContextFile.formatName
    var version = 1
    /// Column names by model name, as written.
    var models: [String: [String]]
    var records: [Record]

    struct Record: Codable {
        enum State: String, Codable { case inserted, changed, deleted, unchanged }
        var model: String
        var state: State
        var values: [TaggedValue]
        var baseline: [TaggedValue]
        /// Unsaved parents this record is linked to: foreign-key slot → record position.
        var links: [Link]?
    }

    struct Link: Codable {
        var slot: Int
        var record: Int
        /// Whether the link is the record's owner (reached through it) rather than an
        /// assigned parent.
        var inverse: Bool?
    }
}

/// A ``ModelValue`` written with its kind, so dates, data and UUIDs come back as they were:
/// `null`, or an object with one key naming the kind (`{"i": 5}`, `{"r": 7.3e8}`).
///
/// Dates are written as `"r"`: seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`),
/// the double a `Date` holds, so they read back to the bit. Files written before used
/// `"t"`, seconds since 1970, which costs a rounding each way; they still read.
struct TaggedValue: Codable {
    var value: ModelValue

    init(_ value: ModelValue) { self.value = value }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        if case .null = value {
            var single = encoder.singleValueContainer()
            try single.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: Key.self)
        switch value {
        case .null: break
        case .bool(let b): try container.encode(b, forKey: Key(stringValue: "b"))
        case .int(let i): try container.encode(i, forKey: Key(stringValue: "i"))
        case .double(let d):
            if d.isFinite {
                try container.encode(d, forKey: Key(stringValue: "f"))
            } else {
                try container.encode(d.isNaN ? "nan" : d > 0 ? "inf" : "-inf", forKey: Key(stringValue: "f"))
            }
        case .string(let s): try container.encode(s, forKey: Key(stringValue: "s"))
        case .date(let d): try container.encode(d.timeIntervalSinceReferenceDate, forKey: Key(stringValue: "r"))
        case .data(let d): try container.encode(d.base64EncodedString(), forKey: Key(stringValue: "x"))
        case .uuid(let u): try container.encode(u.uuidString, forKey: Key(stringValue: "u"))
        case .array(let a): try container.encode(a.map(TaggedValue.init), forKey: Key(stringValue: "a"))
        case .dictionary(let d): try container.encode(d.mapValues(TaggedValue.init), forKey: Key(stringValue: "o"))
        }
    }

    init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), single.decodeNil() {
            value = .null
            return
        }
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a value is an object with exactly one kind key"))
        }
        func bad(_ what: String) -> DecodingError {
            .dataCorrupted(.init(codingPath: decoder.codingPath + [key], debugDescription: what))
        }
        switch key.stringValue {
        case "b": value = .bool(try container.decode(Bool.self, forKey: key))
        case "i": value = .int(try container.decode(Int64.self, forKey: key))
        case "f":
            if let d = try? container.decode(Double.self, forKey: key) {
                value = .double(d)
            } else {
                switch try container.decode(String.self, forKey: key) {
                case "nan": value = .double(.nan)
                case "inf": value = .double(.infinity)
                case "-inf": value = .double(-.infinity)
                default: throw bad("not a number")
                }
            }
        case "s": value = .string(try container.decode(String.self, forKey: key))
        case "r", "t":
            let seconds = try container.decode(Double.self, forKey: key)
            guard seconds.isFinite else { throw bad("not a date") }
            value = .date(key.stringValue == "r" ? Date(timeIntervalSinceReferenceDate: seconds) : Date(timeIntervalSince1970: seconds))
        case "x":
            guard let data = Data(base64Encoded: try container.decode(String.self, forKey: key)) else { throw bad("not base64") }
            value = .data(data)
        case "u":
            guard let uuid = UUIDText.uuid(try container.decode(String.self, forKey: key)) else { throw bad("not a UUID") }
            value = .uuid(uuid)
        case "a": value = .array(try container.decode([TaggedValue].self, forKey: key).map(\.value))
        case "o": value = .dictionary(try container.decode([String: TaggedValue].self, forKey: key).mapValues(\.value))
        default: throw bad("unknown value kind \"\(key.stringValue)\"")
        }
    }
}
