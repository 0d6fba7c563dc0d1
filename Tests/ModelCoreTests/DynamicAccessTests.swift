import ArrayAdapter
import Foundation
import Testing

@Suite("Dynamic access")
struct DynamicAccessTests {
    @Test func initFromDictionaryCastsEveryValue() throws {
        let task = try Task(["name": "walk", "due_date": "2012-09-15", "priority": "2", "done": 1])
        #expect(task.name == "walk")
        #expect(task.dueDate == Date(timeIntervalSince1970: 1_347_667_200))
        #expect(task.priority == 2)
        #expect(task.done)
    }

    @Test func unknownKeyIsAnErrorNotSilentlyStored() throws {
        let error = #expect(throws: ModelError.self) { try Task(["name": "walk", "colour": "red"]) }
        #expect(error?.kind == .unknownColumn)
        #expect(error?.column == "colour")
        #expect(error?.model == "Task")
        let shared = try #require(error as (any SwiftModelError)?)
        #expect(shared.modelName == "Task" && shared.columnName == "colour" && shared.storeErrorKind == nil)
        let task = Task()
        #expect(throws: ModelError.self) { try task.set("colour", to: "red") }
        #expect(throws: ModelError.self) { try task["colour"] }
    }

    @Test func aRecordIsItsModelWithoutAConformanceLookup() {
        let task = Task(name: "walk")
        let model = task.asModel
        #expect(model === task)
        #expect(model.map { type(of: $0) == Task.self } == true)
        final class Bare: ModelObject {}
        #expect(Bare().asModel == nil, "a ModelObject that is no model")
    }

    @Test func setIsAllOrNothing() throws {
        let task = Task(name: "keep")
        let error = #expect(throws: CastError.self) { try task.set(["name": "new", "priority": "high"]) }
        let shared = error.map { $0 as any SwiftModelError }
        #expect(shared?.modelName == "Task" && shared?.columnName == "priority" && shared?.offendingValue == "high")
        #expect(task.name == "keep")
        #expect(task.priority == 0)
    }

    @Test func subscriptAndAttributes() throws {
        let task = try Task(["name": "walk"])
        try task.set("due_date", to: "2012-09-19")
        #expect(try task["due_date"] == .date(Date(timeIntervalSince1970: 1_348_012_800)))
        #expect(try task["name"] == "walk")
        let attributes = task.attributes
        #expect(attributes["name"] == "walk")
        #expect(attributes["id"] == .null)
        #expect(attributes.count == Task.columns.count)
    }

    @Test func swiftValuesThroughSet() throws {
        let e = Everything()
        let uuid = UUID()
        try e.set("uuid", to: uuid)
        #expect(e.uuid == uuid)
        try e.set("date", to: Date(timeIntervalSince1970: 5))
        #expect(e.date == Date(timeIntervalSince1970: 5))
        try e.set("uuid", to: uuid.uuidString)
        #expect(e.uuid == uuid)
    }

    @Test func everyTypeRoundTripsThroughTheStore() throws {
        try withStore { (_: ArrayAdapter) throws in
            let e = Everything()
            e.string = "héllo 👋"
            e.text = ""
            e.bool = true
            e.int = .max
            e.int64 = .min
            e.int32 = -5
            e.double = 0.1
            e.float = 1.5
            e.date = Date(timeIntervalSince1970: 1_335_205_543.511)
            e.data = Data([0, 255, 7])
            e.uuid = UUID()
            e.tags = ["a", "b"]
            e.values = [1, "x", nil, [2.5]]
            e.settings = ["k": ["nested": true]]
            e.scores = ["x": 1]
            try e.save()
            let loaded = try #require(try stored(e))
            #expect(loaded.attributes == e.attributes)
            #expect(loaded.string == "héllo 👋" && loaded.int == .max && loaded.int64 == .min)
            #expect(loaded.values == [1, "x", nil, [2.5]])
        }
    }
}
