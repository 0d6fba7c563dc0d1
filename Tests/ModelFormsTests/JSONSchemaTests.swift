import Foundation
import Testing

@testable import ModelForms

@Suite struct JSONSchemaTests {
    @Test func rulesMapToKeywords() throws {
        let schema = try Member.jsonSchema()
        guard case .dictionary(let root) = schema.root else { Issue.record("not an object"); return }
        #expect(root["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        #expect(root["required"] == .array(["name", "email", "password"]))
        #expect(root["additionalProperties"] == .bool(false))
        let name = try #require(schema.property("name"))
        #expect(name["type"] == "string" && name["minLength"] == .int(2) && name["maxLength"] == .int(40))
        #expect(name["pattern"] == "\\S" && name["title"] == "Name")
        let email = try #require(schema.property("email"))
        #expect(email["format"] == "email")
        let age = try #require(schema.property("age"))
        #expect(age["type"] == .array(["integer", "null"]) && age["minimum"] == .int(13))
        #expect(age["exclusiveMaximum"] == .int(130))
        let rating = try #require(schema.property("rating"))
        #expect(rating["type"] == "number" && rating["exclusiveMinimum"] == .int(0) && rating["maximum"] == .int(5))
        #expect(schema.property("plan")?["enum"] == .array(["free", "pro", "team"]))
        #expect(schema.property("website")?["format"] == "uri")
        #expect(schema.property("secret")?["pattern"] == "^(?:[a-z]*)$")
        #expect(schema.property("tags")?["items"] == .dictionary(["type": "string"]))
        #expect(schema.property("due_date")?["format"] == "date-time")
        #expect(schema.property("id")?["readOnly"] == .bool(true))
        #expect(schema.property("created_at")?["readOnly"] == .bool(true))
        // The update context drops `presence.on(.create)`.
        var update = JSONSchemaOptions()
        update.context = .update
        guard case .dictionary(let updated) = try Member.jsonSchema(update).root else { return }
        #expect(updated["required"] == .array(["name", "email"]))
    }

    @Test func aRealValidatorAgreesOnValidAndInvalidDocuments() throws {
        let valid: [ModelValue] = [
            ["name": "Ada", "email": "ada@example.com", "password": "12345678"],
            [
                "name": "Ada Lovelace", "email": "a.b+c@x-y.example.org", "password": "correct horse",
                "website": "https://example.com/p?q", "age": 36, "rating": 4.5, "plan": "team", "newsletter": true,
                "due_date": "2012-09-15T00:00:00.000Z", "tags": ["a", "b"], "secret": "abc", "bio": "Hi", "website2": .null,
            ].filter { $0.key != "website2" },
            ["name": "Ada", "email": "ada@example.com", "password": "12345678", "age": .null, "website": .null],
        ].map { .dictionary($0.mapValues { $0 }) }
        let invalid: [(ModelValue, String)] = [
            (["email": "ada@example.com", "password": "12345678"], "name missing"),
            (["name": "A", "email": "ada@example.com", "password": "12345678"], "name too short"),
            (["name": "   ", "email": "ada@example.com", "password": "12345678"], "name blank"),
            (["name": "Ada", "email": "ada@", "password": "12345678"], "bad email"),
            (["name": "Ada", "email": "ada@example.com", "password": "short"], "short password"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "age": 12], "too young"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "age": 130], "too old"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "age": 30.5], "fractional age"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "rating": 0], "rating 0"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "plan": "gold"], "plan"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "website": "ftp://x"], "url"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "secret": "ABC"], "format"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "nope": 1], "extra key"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "newsletter": "yes"], "type"),
            (["name": "Ada", "email": "ada@example.com", "password": "12345678", "tags": [1]], "items"),
        ]
        let verdicts = try PythonJSONSchema.validate(try Member.jsonSchema(), valid + invalid.map(\.0))
        #expect(verdicts.prefix(valid.count).allSatisfy { $0 }, "\(verdicts)")
        for (k, (_, why)) in invalid.enumerated() { #expect(!verdicts[valid.count + k], "\(why) passed the validator") }
    }

    /// The same strings through the Swift rules and the exported patterns in Python.
    @Test func patternsMatchTheSwiftRules() throws {
        let samples = [
            "ada@example.com", "a.b+c@x-y.example.org", "ada@", "@example.com", "ada@example", "ada@example.123",
            "a..b@example.com", ".a@example.com", "ada@-x.com", "ada@x-.com", "ada@exa mple.com", "ada@@example.com",
            String(repeating: "a", count: 64) + "@example.com", String(repeating: "a", count: 65) + "@example.com",
            "ada@" + String(repeating: "b", count: 63) + ".com", "ada@" + String(repeating: "b", count: 64) + ".com",
            "x@" + Array(repeating: "abcdefghi", count: 25).joined(separator: ".") + ".com", "ädä@example.com",
            "https://example.com", "HTTPS://EXAMPLE.COM/x", "https://", "http:/x", "https://a b", "mailto:x@y.z", "",
        ]
        var documents: [ModelValue] = []
        var swift: [Bool] = []
        for sample in samples {
            for key in ["email", "website"] {
                var values = FormApplyTests.valid
                values[key] = sample
                let errors = try Member().apply(formValues: values)
                swift.append(errors.isEmpty)
                var document = FormApplyTests.valid.mapValues { ModelValue.string($0) }
                document["rating"] = .double(4.5)
                document[key] = key == "website" && sample.isEmpty ? .null : .string(sample)
                documents.append(.dictionary(document))
            }
        }
        let python = try PythonJSONSchema.validate(try Member.jsonSchema(), documents)
        for (k, sample) in samples.enumerated() {
            #expect(python[2 * k] == swift[2 * k], "email \(sample.debugDescription): python \(python[2 * k])")
            #expect(python[2 * k + 1] == swift[2 * k + 1], "url \(sample.debugDescription): python \(python[2 * k + 1])")
        }
    }

    @Test func optionalColumnsUnderPresenceAreNotNullable() throws {
        let schema = try Profile.jsonSchema()
        guard case .dictionary(let root) = schema.root else { Issue.record("not an object"); return }
        #expect(root["required"] == .array(["nickname", "age", "birthday"]))
        #expect(schema.property("nickname")?["type"] == "string")
        #expect(schema.property("age")?["type"] == "integer")
        #expect(schema.property("birthday")?["type"] == "string")
        #expect(schema.property("motto")?["type"] == .array(["string", "null"]), "no presence: nullable")
        let verdicts = try PythonJSONSchema.validate(schema, [
            ["nickname": "Ada", "age": 36, "birthday": "1815-12-10T00:00:00Z"],
            ["nickname": .null, "age": 36, "birthday": "1815-12-10T00:00:00Z"],
            ["nickname": "Ada", "age": .null, "birthday": "1815-12-10T00:00:00Z"],
            ["nickname": "Ada", "age": 36, "birthday": .null],
            ["nickname": "Ada", "age": 36, "birthday": "1815-12-10T00:00:00Z", "motto": .null],
        ])
        #expect(verdicts == [true, false, false, false, true])
        // On update, `presence.on(.create)` does not apply: the column is optional again.
        var update = JSONSchemaOptions()
        update.context = .update
        let updated = try Profile.jsonSchema(update)
        #expect(updated.property("birthday")?["type"] == .array(["string", "null"]))
    }

    @Test func defaultModelsAndOptions() throws {
        var options = JSONSchemaOptions()
        options.dates = .millisecondsSince1970
        options.allowsAdditionalProperties = true
        options.id = "https://example.com/note.json"
        let schema = try Note.jsonSchema(options)
        guard case .dictionary(let root) = schema.root else { return }
        #expect(root["required"] == nil && root["$id"] == "https://example.com/note.json")
        #expect(schema.property("published_on")?["type"] == .array(["integer", "null"]))
        #expect(schema.property("token")?["format"] == "uuid")
        #expect(schema.property("payload")?["contentEncoding"] == "base64")
        let verdicts = try PythonJSONSchema.validate(schema, [
            ["title": "T", "count": 3, "published_on": 1_347_667_200_000, "extra": true],
            ["title": "T", "count": 2.5],
        ])
        #expect(verdicts == [true, false])
    }
}

/// Runs Python's `jsonschema` (Draft 2020-12, with format checking) over documents.
enum PythonJSONSchema {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        job = json.load(sys.stdin)
        Draft202012Validator.check_schema(job["schema"])
        v = Draft202012Validator(job["schema"], format_checker=Draft202012Validator.FORMAT_CHECKER)
        print(json.dumps([v.is_valid(d) for d in job["documents"]]))
        """

    static func validate(_ schema: JSONSchemaDocument, _ documents: [ModelValue]) throws -> [Bool] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let job = ModelValue.dictionary(["schema": schema.root, "documents": .array(documents)])
        input.fileHandleForWriting.write(Data(ModelJSON.serializedBytes(job)))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 jsonschema failed (install python3-jsonschema): " + String(decoding: err, as: UTF8.self))
        }
        return try JSONDecoder().decode([Bool].self, from: out)
    }
}
