import ArrayAdapter
import ModelCore
import Foundation
import Testing

final class Reserved: Model {
    @Column var description: String = ""
    @Column("changes") var changeLog: String = ""
    @Column var isDirty: Bool = false
    init() {}
}

/// Real tables use these names; only Swift-side clashes are refused.
final class CommonNames: Model {
    @Column var type: String = ""
    @Column var description: String = ""
    @Column("errors") var errorCount: Int = 0
    @Column var store: String = ""
    @Column var set: String = ""
    @Column var `class`: String = ""
    @Column var schema: String = ""
    @Column("save") var saveSlot: Int = 0
    init() {}
}

final class Clash: Model {
    @Column var fooBar: String = ""
    @Column("foo_bar") var other: String = ""
    init() {}
}

final class BadDefault: Model {
    @Column(default: "soon") var due: Date?
    init() {}
}

final class DeclaresID: Model {
    var id: String = ""  // shadows the framework's id
    @Column var name: String = ""
    init() {}
}

final class BadName: Model {
    @Column("two words") var name: String = ""
    init() {}
}

/// A table whose `created_at` is Unix seconds another tool writes: not stamped, but
/// `updated_at` still is.
final class ForeignTimestamps: Model {
    @Column("created_at") var createdEpoch: Double = 0
    @Column var updatedAt: Date?
    init() {}
}

final class BadDateStorage: Model {
    @Column(options: .dateStorage(.text)) var count: Int = 0
    init() {}
}

final class TwoDateStorages: Model {
    @Column(options: [.dateStorage(.text), .dateStorage(.secondsSince1970)]) var when: Date?
    init() {}
}

final class NoTimestamps: Model {
    static var recordsTimestamps: Bool { false }
    static var tableName: String { "legacy_items" }
    @Column var createdAt: String = ""
    init() {}
}

final class BadOption: Model {
    @Column(options: .text) var count: Int = 0
    init() {}
}

final class ReadsInInit: Model {
    @Column var name: String = "x"
    @Column var upper: String = ""
    init() {
        super.init()
        upper = name.uppercased()
    }
}

@Suite("Schema")
struct SchemaTests {
    @Test func derivedOnceWithSnakeCaseNamesTypesAndOptions() throws {
        let schema = Task.schema
        #expect(schema === Task.schema)  // cached per type
        #expect(schema.modelName == "Task")
        #expect(schema.tableName == "tasks")
        #expect(schema.columns.map(\.name) == ["id", "name", "long_name", "due_date", "priority", "done", "created_at", "updated_at"])
        #expect(Task.column(named: "long_name")?.propertyName == "longName")
        #expect(Task.column(named: "long_name")?.type == .string)
        #expect(Task.column(named: "long_name")?.isOptional == true)
        #expect(Task.column(named: "priority")?.isOptional == false)
        #expect(Task.column(named: "nope") == nil)
        #expect(schema.createdAtIndex == 6)
        #expect(schema.updatedAtIndex == 7)
        #expect(schema.idColumn.type == .int)
        #expect(schema.problem == nil)
    }

    /// Schemas are found by type from many threads while others are built: each type
    /// always gets its own schema, the same one every time.
    @Test func eachTypeFindsItsOwnSchemaWhileOthersAreBuilt() async {
        let types: [any ModelProtocol.Type] = [
            Reserved.self, CommonNames.self, Task.self, Everything.self, Device.self, Country.self, Hooked.self,
            Note.self, Memo.self, Label.self, Scoped.self, Routed.self, Watched.self, Unwatched.self, Tally.self,
            Numbered.self, Defaults.self, NoTimestamps.self,
        ]
        let problems = await withTaskGroup(of: [String].self) { group in
            for round in 0..<8 {
                group.addTask {
                    var problems: [String] = []
                    for k in types.indices {
                        let type = types[(k * (round + 3)) % types.count]
                        let first = type.schema
                        if first !== type.schema || first.modelName != String(describing: type) {
                            problems.append("\(type): \(first.modelName)")
                        }
                    }
                    return problems
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(problems.isEmpty)
        #expect(Set(types.map { ObjectIdentifier($0.schema) }).count == types.count)
    }

    @Test func everyColumnType() {
        let types = Everything.columns.dropFirst().map { "\($0.name):\($0.castTarget)" }
        #expect(
            types == [
                "string:string", "text:text?", "bool:bool", "int:int", "int64:int", "int32:int", "double:double",
                "float:double", "date:date", "data:data", "uuid:uuid?", "tags:array<string>", "values:array",
                "settings:dictionary", "scores:dictionary<int>?",
            ])
    }

    @Test func declaredDefaultIsCastAtDeclaration() throws {
        guard case .literal(let value) = Task.column(named: "due_date")?.defaultValue else {
            Issue.record("expected a literal default")
            return
        }
        #expect(value == .date(Date(timeIntervalSince1970: 1_347_667_200)))
    }

    @Test func idTypes() {
        #expect(Device.schema.idColumn.type == .uuid)
        #expect(Device.schema.idGeneration == .uuid)
        #expect(Country.schema.idColumn.type == .string)
        #expect(Country.schema.idGeneration == .provided)
        #expect(Task.schema.idGeneration == .autoIncrement)
    }

    @Test(arguments: [
        (Reserved.schema, SchemaError.Kind.reservedName, "is_dirty"),
        (Clash.schema, .duplicateName, "foo_bar"),
        (BadDefault.schema, .invalidDefault, "due"),
        (DeclaresID.schema, .declaredID, "id"),
        (BadName.schema, .invalidName, "two words"),
        (BadDateStorage.schema, .invalidOption, "count"),
        (TwoDateStorages.schema, .invalidOption, "when"),
        (BadOption.schema, .invalidOption, "count"),
    ])
    func invalidDeclarationsAreRejected(schema: ModelSchema, kind: SchemaError.Kind, column: String) throws {
        let problem = try #require(schema.problem)
        #expect(problem.kind == kind)
        #expect(problem.column == column)
        #expect(problem.model == schema.modelName)
        #expect(!problem.description.isEmpty)
    }

    @Test func aTimestampColumnThatIsNotADateIsNotStampedAndDoesNotSwitchTheOtherOff() throws {
        #expect(ForeignTimestamps.schema.problem == nil)
        #expect(ForeignTimestamps.schema.createdAtIndex == nil && ForeignTimestamps.schema.updatedAtIndex != nil)
        try withStore { (_: ArrayAdapter) throws in
            let record = ForeignTimestamps()
            record.createdEpoch = 1_700_000_000
            try record.save()
            #expect(record.createdEpoch == 1_700_000_000, "left as the caller set it")
            #expect(record.updatedAt != nil, "updated_at is stamped")
        }
    }

    @Test func commonColumnNamesAreFree() throws {
        #expect(CommonNames.schema.problem == nil)
        #expect(CommonNames.schema.columnNames == ["id", "type", "description", "errors", "store", "set", "class", "schema", "save"])
        try withStore { (_: ArrayAdapter) throws in
            let record = try CommonNames(["type": "bolt", "description": "M6", "errors": 2, "class": "a"])
            try record.save()
            let back = try #require(try CommonNames.find(record.id ?? -1))
            #expect(back.type == "bolt" && back.description == "M6" && back.errorCount == 2 && back.class == "a")
            #expect(try CommonNames.where("type").eq("bolt").count() == 1)
        }
    }

    @Test func invalidSchemaRefusesToTouchTheStore() throws {
        try withStore { (store: ArrayAdapter) throws in
            let record = Reserved()
            record.description = "still usable in memory"
            #expect(record.description == "still usable in memory")
            #expect(throws: SchemaError.self) { try record.save() }
            #expect(throws: SchemaError.self) { try Reserved.all() }
            #expect(throws: SchemaError.self) { try store.prepare(Reserved.schema) }
        }
    }

    @Test func timestampsOptOutAndCustomTableName() {
        #expect(NoTimestamps.schema.problem == nil)
        #expect(NoTimestamps.schema.createdAtIndex == nil)
        #expect(NoTimestamps.schema.tableName == "legacy_items")
    }

    @Test func modelMayReadItsPropertiesInInit() throws {
        let record = ReadsInInit()
        #expect(record.upper == "X")
        #expect(ReadsInInit.schema.problem == nil)
        #expect(ReadsInInit.columns.map(\.name) == ["id", "name", "upper"])
    }

    @Test func snakeCase() {
        #expect(snake("longName") == "long_name")
        #expect(snake("userID") == "user_id")
        #expect(snake("URLString") == "url_string")
        #expect(snake("name") == "name")
        #expect(snake("line2Text") == "line2_text")
    }

    func snake(_ s: String) -> String { snakeCased(s) }
}
