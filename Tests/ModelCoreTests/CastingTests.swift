import ArrayAdapter
import Foundation
import Testing

@Suite("Casting")
struct CastingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let input: ModelValue
        let target: CastTarget
        let expected: ModelValue?  // nil: must fail
        var testDescription: String { "\(input) → \(target) = \(expected.map { "\($0)" } ?? "error")" }
    }

    static let int = CastTarget(.int), double = CastTarget(.double), bool = CastTarget(.bool)
    static let string = CastTarget(.string), date = CastTarget(.date), uuid = CastTarget(.uuid)

    static let cases: [Case] = [
        // string -> int
        Case(input: "12", target: int, expected: 12),
        Case(input: "-7", target: int, expected: -7),
        Case(input: "+7", target: int, expected: 7),
        Case(input: "12abc", target: int, expected: nil),
        Case(input: "abc", target: int, expected: nil),
        Case(input: "3.7", target: int, expected: nil),
        Case(input: "", target: int, expected: nil),
        Case(input: " 12", target: int, expected: nil),
        Case(input: "99999999999999999999", target: int, expected: nil),
        // double -> int only when integral
        Case(input: 4.0, target: int, expected: 4),
        Case(input: 4.5, target: int, expected: nil),
        Case(input: .double(.infinity), target: int, expected: nil),
        Case(input: 1e19, target: int, expected: nil),
        Case(input: true, target: int, expected: nil),
        // -> double
        Case(input: "3.7", target: double, expected: 3.7),
        Case(input: "-0.5e2", target: double, expected: -50.0),
        Case(input: ".5", target: double, expected: 0.5),
        Case(input: "3.7x", target: double, expected: nil),
        Case(input: "nan", target: double, expected: nil),
        Case(input: "inf", target: double, expected: nil),
        Case(input: "e5", target: double, expected: nil),
        Case(input: 5, target: double, expected: 5.0),
        Case(input: false, target: double, expected: nil),
        // -> bool
        Case(input: true, target: bool, expected: true),
        Case(input: 1, target: bool, expected: true),
        Case(input: 0, target: bool, expected: false),
        Case(input: 2, target: bool, expected: nil),
        Case(input: "TRUE", target: bool, expected: true),
        Case(input: "False", target: bool, expected: false),
        Case(input: "yes", target: bool, expected: true),
        Case(input: "NO", target: bool, expected: false),
        Case(input: "1", target: bool, expected: true),
        Case(input: "0", target: bool, expected: false),
        Case(input: "y", target: bool, expected: nil),
        Case(input: "maybe", target: bool, expected: nil),
        Case(input: 1.0, target: bool, expected: true),
        // -> string, canonical
        Case(input: 5, target: string, expected: "5"),
        Case(input: -5, target: string, expected: "-5"),
        Case(input: 2.5, target: string, expected: "2.5"),
        Case(input: true, target: string, expected: "true"),
        Case(input: "x", target: string, expected: "x"),
        Case(input: .date(Date(timeIntervalSince1970: 1_335_205_543.511)), target: string, expected: "2012-04-23T18:25:43.511Z"),
        Case(input: .data(Data([1])), target: string, expected: nil),
        Case(input: [1, 2], target: string, expected: nil),
        Case(input: "walk", target: CastTarget(.text), expected: "walk"),
        // -> date
        Case(input: "2012-04-23T18:25:43Z", target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543))),
        Case(input: "2012-04-23T18:25:43.511Z", target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543.511))),
        Case(input: "2012-04-23T20:25:43+02:00", target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543))),
        Case(input: "2012-04-23T18:25:43", target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543))),
        Case(input: "2012-09-15", target: date, expected: .date(Date(timeIntervalSince1970: 1_347_667_200))),
        Case(input: "2012-04-23 18:25:43 +0000", target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543))),
        Case(input: "2012-04-23 19:25:43 +0100", target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543))),
        Case(input: 1_335_205_543, target: date, expected: .date(Date(timeIntervalSince1970: 1_335_205_543))),
        Case(input: 0.5, target: date, expected: .date(Date(timeIntervalSince1970: 0.5))),
        Case(input: "2012-02-30", target: date, expected: nil),
        Case(input: "2012-13-01", target: date, expected: nil),
        Case(input: "2012-04-23T25:00:00Z", target: date, expected: nil),
        Case(input: "23/04/2012", target: date, expected: nil),
        Case(input: "2012-04-23T18:25:43.Z", target: date, expected: nil),
        Case(input: "tomorrow", target: date, expected: nil),
        Case(input: true, target: date, expected: nil),
        // -> uuid
        Case(input: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", target: uuid,
             expected: .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
        Case(input: "not-a-uuid", target: uuid, expected: nil),
        Case(input: 5, target: uuid, expected: nil),
        // -> data
        Case(input: .data(Data([1, 2])), target: CastTarget(.data), expected: .data(Data([1, 2]))),
        Case(input: "AQI=", target: CastTarget(.data), expected: nil),
        // -> array
        Case(input: [1, "a"], target: CastTarget(.array), expected: [1, "a"]),
        Case(input: "[1, 2, 3]", target: CastTarget(.array), expected: [1, 2, 3]),
        Case(input: "[1.5, \"x\", null, true, {\"k\": []}]", target: CastTarget(.array),
             expected: [1.5, "x", nil, true, ["k": []]]),
        Case(input: "{\"a\": 1}", target: CastTarget(.array), expected: nil),
        Case(input: "[1, 2", target: CastTarget(.array), expected: nil),
        Case(input: 5, target: CastTarget(.array), expected: nil),
        Case(input: ["1", 2], target: CastTarget(.array, elementType: .int), expected: [1, 2]),
        Case(input: ["x"], target: CastTarget(.array, elementType: .int), expected: nil),
        Case(input: [1, 2], target: CastTarget(.array, elementType: .string), expected: ["1", "2"]),
        // -> dictionary
        Case(input: ["a": 1], target: CastTarget(.dictionary), expected: ["a": 1]),
        Case(input: "{\"a\": {\"b\": [1, \"\\u00e9\\n\"]}}", target: CastTarget(.dictionary), expected: ["a": ["b": [1, "é\n"]]]),
        Case(input: "[1]", target: CastTarget(.dictionary), expected: nil),
        Case(input: "{\"a\": 1} x", target: CastTarget(.dictionary), expected: nil),
        Case(input: ["a": "3"], target: CastTarget(.dictionary, elementType: .int), expected: ["a": 3]),
        // nil
        Case(input: nil, target: CastTarget(.int, optional: true), expected: nil as ModelValue? ?? .null),
        Case(input: nil, target: int, expected: nil),
    ]

    @Test(arguments: cases)
    func cast(_ c: Case) throws {
        if let expected = c.expected {
            let result = try Caster.cast(c.input, to: c.target)
            #expect(result == expected)
        } else {
            let error = #expect(throws: CastError.self) { try Caster.cast(c.input, to: c.target) }
            #expect(error?.value == c.input)
            #expect(error?.target == c.target)
        }
    }

    @Test func castErrorNamesModelColumnValueAndType() throws {
        try withStore { (_: ArrayAdapter) throws in
            let task = Task()
            let error = #expect(throws: CastError.self) { try task.set("priority", to: "12abc") }
            #expect(error?.model == "Task")
            #expect(error?.column == "priority")
            #expect(error?.value == "12abc")
            #expect(error?.target == CastTarget(.int))
            #expect(error?.description == "Task.priority: cannot cast \"12abc\" (string) to int: not an integer")
            #expect(task.priority == 0)
        }
    }

    @Test func fractionalSecondsSurviveParsingAndFormatting() throws {
        let value = try Caster.cast("2012-04-23T18:25:43.123456Z", to: CastTarget(.date))
        guard case .date(let date) = value else { Issue.record("not a date"); return }
        #expect(abs(date.timeIntervalSince1970 - 1_335_205_543.123456) < 1e-6)
        #expect(try Caster.cast(value, to: CastTarget(.string)) == "2012-04-23T18:25:43.123456Z")
    }

    @Test func assignmentCastsThroughDynamicAPI() throws {
        let task = Task()
        try task.set("due_date", to: "2012-09-19")
        #expect(task.dueDate == Date(timeIntervalSince1970: 1_348_012_800))
        try task.set("done", to: "yes")
        #expect(task.done)
        try task.set("name", to: 5)
        #expect(task.name == "5")
        try task.set("long_name", to: nil)
        #expect(task.longName == nil)
    }

    @Test func nilForNonOptionalColumn() throws {
        let task = Task()
        // No declared default: an error, value unchanged.
        task.priority = 3
        #expect(throws: CastError.self) { try task.set("priority", to: nil) }
        #expect(task.priority == 3)
        // A declared default: nil stores the default.
        let thing = Defaults()
        thing.level = 9
        try thing.set("level", to: nil)
        #expect(thing.level == 5)
    }

    @Test func rangesSetsAndTypedCollections() throws {
        let e = Everything()
        try e.set("values", to: ModelValue(1...3))
        #expect(e.values == [1, 2, 3])
        try e.set("tags", to: ModelValue(Set(["b", "a"])))
        #expect(e.tags == ["a", "b"])
        try e.set("tags", to: "[\"x\", \"y\"]")
        #expect(e.tags == ["x", "y"])
        try e.set("scores", to: "{\"a\": 1}")
        #expect(e.scores == ["a": 1])
        #expect(throws: CastError.self) { try e.set("scores", to: ["a": "x"]) }
    }

    @Test func outOfRangeForSwiftType() throws {
        let e = Everything()
        let error = #expect(throws: CastError.self) { try e.set("int32", to: .int(Int64(Int32.max) + 1)) }
        #expect(error?.column == "int32")
        #expect(e.int32 == 0)
    }

    @Test func assigningEqualValueDoesNotDirty() throws {
        try withStore { (_: ArrayAdapter) throws in
            let task = Task(name: "a")
            try task.save()
            task.name = "a"
            try task.set("priority", to: "0")
            #expect(!task.isDirty)
        }
    }
}

final class Defaults: Model {
    @Column(default: 5) var level: Int
    @Column(default: "x") var code: String
    @Column(default: "2012-09-15") var day: Date?
    @Column var token: UUID = UUID()
    @Column var stamp: Date = Date()
    @Column var list: [Int] = []
    init() {}
}
