import AdapterConformance
import ArrayAdapter
import Foundation
import Testing

/// `Codable` decoding (``ModelProtocol/init(from:)``, which looks up only the keys the
/// model's plan reads when nothing else sees the object) agrees with the JSON reader
/// (`init(json:)`) on every object: present, missing and null keys, values of every kind
/// in every column, keys the model does not know.
@Suite struct CodableDecodingTests {
    /// A random JSON value, as text.
    static func value(_ random: inout SeededRandom) -> String {
        switch random.int(0...11) {
        case 0: return "null"
        case 1: return String(random.int(-5...5))
        // Fractions only: `Decoder` cannot tell `11.0` from `11`, so Codable writes "11"
        // into a string column where the reader, which sees the text, writes "11.0".
        case 2: return String(Double(random.int(-12...12)) + random.pick([0.25, 0.5, 0.75]))
        case 3: return random.flip() ? "true" : "false"
        case 4: return "\"\(random.pick(["", "a", "héllo", "12", "2.5", "true"]))\""
        case 5: return "\"2023-11-14T22:13:2\(random.int(0...9))Z\""
        case 6: return "\"\(random.pick(["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "not-a-uuid"]))\""
        case 7: return "\"\(random.pick(["aGVsbG8=", "!!"]))\""
        case 8: return "[\(random.pick(["", "\"a\"", "\"a\", \"b\"", "1", "\"2023-11-14T22:13:20Z\""]))]"
        case 9: return "{\(random.pick(["", "\"k\": 1", "\"k\": \"v\"", "\"k\": null"]))}"
        case 10: return "9007199254740993"
        default: return "1e400"
        }
    }

    /// A value column `column` accepts, mostly (null in about one in twenty).
    static func fitting(_ column: ColumnDefinition, _ random: inout SeededRandom) -> String {
        if random.int(0...19) == 0 { return "null" }
        switch column.type {
        case .int: return random.pick(["0", "-3", "42", "4.0", "9007199254740993"])
        case .double: return random.pick(["0", "2.5", "-1", "1e3"])
        case .bool: return random.flip() ? "true" : "false"
        case .string, .text: return random.pick(["\"\"", "\"héllo\"", "\"12\"", "7", "2.5", "true"])
        case .date: return random.pick(["\"2023-11-14T22:13:20Z\"", "1700000000"])
        case .uuid: return "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
        case .data: return "\"aGVsbG8=\""
        case .array where column.elementType == .date: return random.pick(["[]", "[\"2023-11-14T22:13:20Z\"]"])
        case .array: return random.pick(["[]", "[\"a\"]", "[\"a\", \"b\"]"])
        case .dictionary: return random.pick(["{}", "{\"k\": 1}", "{\"k\": null}"])
        }
    }

    /// A random object over `columns` (each present or missing; mostly values that fit,
    /// now and then any value) and, now and then, a key no model has.
    static func object(_ columns: [ColumnDefinition], _ random: inout SeededRandom) -> Data {
        var members: [String] = []
        for column in columns where random.int(0...3) != 0 {
            let text = random.int(0...24) == 0 ? value(&random) : fitting(column, &random)
            members.append("\"\(column.name)\": \(text)")
        }
        // A key no model has, with any value the reader accepts (it refuses a whole
        // document with a number beyond Double's range; Codable does not look at the key).
        if random.flip() {
            var unknown = value(&random)
            while unknown == "1e400" { unknown = value(&random) }
            members.insert("\"unknown_key\": \(unknown)", at: random.int(0...members.count))
        }
        return Data("{\(members.joined(separator: ", "))}".utf8)
    }

    /// Both readings of `data`: the same attributes, or both refuse it (the same kind of
    /// error, when both say which).
    func agree<M: Model>(_ type: M.Type, _ data: Data) -> String? {
        let codable = Result { try JSONDecoder().decode(M.self, from: data).attributes }
        let reader = Result { try M(json: data).attributes }
        switch (codable, reader) {
        case (.success(let a), .success(let b)):
            return a == b ? nil : "different values: \(a) / \(b)"
        case (.failure(let a as SerializationError), .failure(let b as SerializationError)):
            // The reader refuses a document with a number beyond Double's range as invalid
            // JSON before reading any column; Codable reports the column it was in.
            return a.kind == b.kind || b.kind == .invalidJSON ? nil : "different errors: \(a) / \(b)"
        case (.failure, .failure):
            return nil
        case (.success(let a), .failure(let b)):
            return "Codable read \(a), the reader refused: \(b)"
        case (.failure(let a), .success(let b)):
            return "Codable refused (\(a)), the reader read \(b)"
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func codableAgreesWithTheJSONReader(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var disagreements: [String] = []
        var read = 0
        for _ in 0..<1_500 {
            let data = Self.object(WireSample.schema.columns, &random)
            if (try? JSONDecoder().decode(WireSample.self, from: data)) != nil { read += 1 }
            if let problem = agree(WireSample.self, data) {
                disagreements.append("\(String(decoding: data, as: UTF8.self)): \(problem)")
            }
            if let problem = agree(WireStrict.self, Self.object(WireStrict.schema.columns, &random)) {
                disagreements.append("WireStrict: \(problem)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, first: \(disagreements.prefix(3))")
        #expect(read > 300, "only \(read) of 1,500 objects were read: the generator makes too few valid ones")
    }

    @Test func missingKeysKeepDefaultsAndNullIsNull() throws {
        let missing = try JSONDecoder().decode(WireSample.self, from: Data(#"{"name": "n"}"#.utf8))
        #expect(missing.level == 5 && missing.note == nil && missing.name == "n")
        let nulled = try JSONDecoder().decode(WireSample.self, from: Data(#"{"note": null, "made": null}"#.utf8))
        #expect(nulled.note == nil && nulled.made == nil)
        #expect(throws: SerializationError.self) {
            try JSONDecoder().decode(WireSample.self, from: Data(#"{"count": null}"#.utf8))
        }
        #expect(throws: SerializationError.self) {
            try JSONDecoder().decode(WireStrict.self, from: Data(#"{"title": "t", "other": 1}"#.utf8))
        }
    }
}
