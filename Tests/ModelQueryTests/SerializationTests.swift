import ArrayAdapter
import Foundation
import ModelCore
import ModelQuery
import Testing

@Suite("Serialization")
struct SerializationTests {
    static let made = Date(timeIntervalSince1970: 1_700_000_000.5)
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")

    static func filledSample() -> WireSample {
        let sample = WireSample()
        sample.id = 42
        sample.name = "Ünïcødé \"quoted\" \n\u{0}nul"
        sample.count = -7
        sample.big = Int64.max
        sample.ratio = 0.1 + 0.2
        sample.enabled = true
        sample.made = made
        sample.serial = uuid
        sample.payload = Data([0, 1, 2, 255, 254])
        sample.tags = ["a", "", "c,d"]
        sample.stamps = [made, Date(timeIntervalSince1970: -1.25)]
        sample.settings = ["n": 1, "s": "x", "nested": ["list": [true, .null]], "nothing": .null]
        sample.note = nil
        sample.level = 9
        return sample
    }

    @Test func everyColumnTypeRoundTripsThroughDictionariesJSONAndCodable() throws {
        let sample = Self.filledSample()
        let dictionary = try sample.dictionaryValue()
        #expect(Set(dictionary.keys) == Set(WireSample.schema.columnNames))
        #expect(dictionary["made"] == "2023-11-14T22:13:20.500Z")
        #expect(dictionary["serial"] == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(dictionary["payload"] == .string(Data([0, 1, 2, 255, 254]).base64EncodedString()))
        #expect(dictionary["note"] == .null)  // explicit nulls by default
        #expect(dictionary["big"] == .int(Int64.max))

        let fromDictionary = try WireSample(dictionary: dictionary)
        let fromJSON = try WireSample(json: try sample.jsonData())
        let fromCodable = try JSONDecoder().decode(WireSample.self, from: try JSONEncoder().encode(sample))
        for copy in [fromDictionary, fromJSON, fromCodable] {
            #expect(copy.attributes == sample.attributes)
            #expect(copy.isNew)
        }
        let array = try JSONDecoder().decode([WireSample].self, from: try JSONEncoder().encode([sample, WireSample()]))
        #expect(array.map(\.attributes) == [sample.attributes, WireSample().attributes])
        let listed = try WireSample.records(fromJSON: try [sample, sample].jsonData())
        #expect(listed.map(\.attributes) == [sample.attributes, sample.attributes])
    }

    @Test func codableReadsAndWritesWhatTheDictionaryPathDoes() throws {
        // Values of another kind than their column (the decoder tries the column's kind
        // first, then every kind) read exactly as `init(json:)` reads them.
        let data = Data(
            #"{"name": 12, "count": "7", "big": 3.0, "ratio": 2, "enabled": true, "note": null, "tags": ["a"], "level": 4.0, "made": "2023-11-14T22:13:20Z"}"#
                .utf8)
        let direct = try JSONDecoder().decode(WireSample.self, from: data)
        #expect(direct.attributes == (try WireSample(json: data)).attributes)
        let sample = Self.filledSample()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(sample) == encoder.encode(ModelValue.dictionary(try sample.dictionaryValue())))
        #expect(throws: SerializationError.self) { try JSONDecoder().decode(WireSample.self, from: Data("[1]".utf8)) }
    }

    @Test func outputIsCompactSortedAndExact() throws {
        let sample = WireStrict()
        sample.title = "héllo"
        sample.count = 3
        sample.score = 2.5
        #expect(
            try sample.jsonString()
                == #"{"count":3,"id":null,"kind":"strict","score":2.5,"title":"héllo","title_length":5}"#)
    }

    @Test(arguments: [JSONDateStrategy.iso8601, .secondsSince1970, .millisecondsSince1970])
    func dateStrategiesRoundTrip(_ strategy: JSONDateStrategy) throws {
        let dates = [Date(timeIntervalSince1970: 1_700_000_000.125), Date(timeIntervalSince1970: -86_400.5)]
        func check<M: Model>(_ type: M.Type, made: KeyPath<M, Date?>, _ set: (M) -> Void) throws -> ModelValue? {
            let record = M()
            set(record)
            let dictionary = try record.dictionaryValue()
            let back = try M(dictionary: dictionary)
            #expect(back.attributes == record.attributes)
            return dictionary["made"]
        }
        switch strategy {
        case .iso8601:
            let value = try check(WireSample.self, made: \.made) { $0.made = dates[0]; $0.stamps = dates }
            #expect(value == "2023-11-14T22:13:20.125Z")
        case .secondsSince1970:
            let value = try check(WireSampleSeconds.self, made: \.made) { $0.made = dates[0]; $0.stamps = dates }
            #expect(value == .double(1_700_000_000.125))
            // Exact for any double, not only whole milliseconds.
            let odd = WireSampleSeconds()
            odd.made = Date(timeIntervalSince1970: 1_234_567_890.123_456_7)
            #expect(try WireSampleSeconds(json: try odd.jsonData()).made == odd.made)
        case .millisecondsSince1970:
            let value = try check(WireSampleMillis.self, made: \.made) { $0.made = dates[0]; $0.stamps = dates }
            #expect(value == .int(1_700_000_000_125))
        }
        // Every strategy also reads ISO 8601 text.
        let text = try WireSampleMillis(dictionary: ["made": "2012-04-23T18:25:43.511Z"])
        #expect(text.made == Date(timeIntervalSince1970: 1_335_205_543.511))
    }

    @Test func keyMapsExclusionsTransformersAndKeyCase() throws {
        let team = WireTeam()
        team.name = "Rovers"
        team.apiToken = "secret"
        team.foundedAt = Date(timeIntervalSince1970: 100)
        team.level = 2
        let dictionary = try team.dictionaryValue()
        #expect(dictionary == ["Id": .null, "TeamName": "Rovers", "FoundedAt": 100.0, "Level": "pro", "Players": []])

        let read = try WireTeam(dictionary: ["TeamName": "Kings", "ApiToken": "injected", "Level": "amateur", "Extra": 1])
        #expect(read.name == "Kings" && read.apiToken == "" && read.level == 1)  // excluded and unknown keys ignored

        let error = #expect(throws: SerializationError.self) { try WireTeam(dictionary: ["Level": "legend"]) }
        #expect(error?.kind == .invalidValue && error?.keyPath == "Level" && error?.model == "WireTeam")
        #expect(error?.description.contains("\"legend\" is not one of \"amateur\", \"pro\"") == true)

        team.level = 7  // not in the table
        let refused = #expect(throws: SerializationError.self) { try team.dictionaryValue() }
        #expect(refused?.kind == .invalidValue && refused?.keyPath == "Level")
    }

    @Test func propertyNameAndCustomKeyCases() throws {
        let player = WirePlayer()
        player.name = "Ann"
        #expect(try player.dictionaryValue() == ["name": "Ann"])  // nil id, bornAt and team omitted
        player.bornAt = Date(timeIntervalSince1970: 0)
        #expect(try player.dictionaryValue()["bornAt"] == "1970-01-01T00:00:00.000Z")
        #expect(try WirePlayer(dictionary: ["bornAt": "1970-01-02"]).bornAt == Date(timeIntervalSince1970: 86_400))
    }

    @Test func explicitNullDiffersFromAMissingKey() throws {
        let missing = try WireSample(dictionary: ["name": "x"])
        #expect(missing.level == 5 && missing.tags == [] && missing.note == nil)
        let nulls = try WireSample(dictionary: ["note": .null, "level": .null, "made": .null])
        #expect(nulls.note == nil && nulls.made == nil)
        #expect(nulls.level == 5)  // null on a non-optional column with a declared default: the default
        let error = #expect(throws: SerializationError.self) { try WireSample(dictionary: ["count": .null]) }
        #expect(error?.kind == .typeMismatch && error?.keyPath == "count" && error?.expected == "int")
    }

    @Test func hooksAdjustTheRawDictionary() throws {
        let strict = try WireStrict(dictionary: ["legacy_title": "old name", "count": "12"])
        #expect(strict.title == "old name" && strict.count == 12)
        let encoded = try strict.dictionaryValue()
        #expect(encoded["kind"] == "strict" && encoded["title_length"] == 8)
        let error = #expect(throws: SerializationError.self) { try WireStrict(dictionary: ["title": "refuse"]) }
        #expect(error?.kind == .invalidValue && error?.message.contains("beforeDecoding") == true)
        // Keys written by afterEncoding are unknown to a strict reader.
        let unknown = #expect(throws: SerializationError.self) { try WireStrict(dictionary: encoded) }
        #expect(unknown?.kind == .unknownKey && unknown?.keyPath == "kind")
    }

    @Test func errorsNameTheKeyPathTheExpectedTypeAndTheValue() throws {
        let nested = #expect(throws: SerializationError.self) {
            try WireTeam(dictionary: ["Players": [["name": "a"], ["name": "b", "bornAt": "yesterday"]]])
        }
        #expect(nested?.kind == .typeMismatch && nested?.keyPath == "Players[1].bornAt")
        #expect(nested?.model == "WirePlayer" && nested?.expected == "date?" && nested?.found == "yesterday")
        #expect(nested?.description.hasPrefix(#"WirePlayer: at Players[1].bornAt: expected date?, found "yesterday" (string)"#) == true)

        let notArray = #expect(throws: SerializationError.self) { try WireTeam(dictionary: ["Players": "many"]) }
        #expect(notArray?.kind == .typeMismatch && notArray?.keyPath == "Players")
        let notObject = #expect(throws: SerializationError.self) { try WireTeam(dictionary: ["Players": [1]]) }
        #expect(notObject?.keyPath == "Players[0]" && notObject?.expected == "WirePlayer object")
        let base64 = #expect(throws: SerializationError.self) { try WireSample(dictionary: ["payload": "%%%"]) }
        #expect(base64?.keyPath == "payload" && base64?.message == "not base64")
        let range = #expect(throws: SerializationError.self) { try WireSample(dictionary: ["count": 1.5]) }
        #expect(range?.expected == "int" && range?.found == 1.5)

        for text in ["{", "[1,]", "nul", "{\"a\" 1}", ""] {
            let error = #expect(throws: SerializationError.self) { try WireSample(json: Data(text.utf8)) }
            #expect(error?.kind == .invalidJSON, "\(text)")
        }
        let notUTF8 = #expect(throws: SerializationError.self) { try WireSample(json: Data([0x7B, 0xFF, 0x7D])) }
        #expect(notUTF8?.kind == .invalidJSON)
        let topLevel = #expect(throws: SerializationError.self) { try WireSample.records(fromJSON: Data("{}".utf8)) }
        #expect(topLevel?.kind == .invalidJSON)

        let nan = WireSample()
        nan.ratio = .nan
        let notFinite = #expect(throws: SerializationError.self) { try nan.jsonData() }
        #expect(notFinite?.kind == .invalidValue && notFinite?.keyPath == "ratio")
    }

    @Test func invalidMappingsAreReportedOnUse() throws {
        let broken = #expect(throws: SerializationError.self) { try WireBroken().dictionaryValue() }
        #expect(broken?.kind == .invalidMapping && broken?.message.contains("\"titel\"") == true)
        let again = #expect(throws: SerializationError.self) { try WireBroken(dictionary: [:]) }
        #expect(again?.kind == .invalidMapping)
        let clash = #expect(throws: SerializationError.self) { try WireClash().dictionaryValue() }
        #expect(clash?.message.contains("both use the key \"name\"") == true)
    }

    @Test func storedRecordsKeepTheirIDAndDecodedOnesAreNew() throws {
        try withWireStore { _ in
            let sample = Self.filledSample()
            sample.id = nil
            try sample.save()
            let json = try sample.jsonData()
            let copy = try WireSample(json: json)
            #expect(copy.id == sample.id && copy.isNew)
            #expect(throws: StoreError.self) { try copy.save() }  // same id: a duplicate
            #expect(try WireSample.count() == 1)
        }
    }
}
