import ArrayAdapter
import Foundation
import Testing

final class Label: Model {
    @Column var title: String = ""
    @Column var size: Int = 0
    init() {}
    var summary: String { title + String(size) }  // reads two columns
}

@Suite("Observers and bindings")
struct ObservationTests {
    @Test func observerSeesOldAndNewOnEveryChangeOnly() throws {
        let task = Task()
        var seen: [String] = []
        let observation = try task.observe(\.name) { old, new in seen.append("\(old)>\(new)") }
        task.name = "a"
        task.name = "a"  // equal: no call
        try task.set("name", to: "b")
        task.priority = 3  // another column
        observation.cancel()
        task.name = "c"
        #expect(seen == [">a", "a>b"])
    }

    @Test func anInitialObserverIsCalledOnceAtOnce() throws {
        let task = Task()
        task.name = "start"
        var seen: [String] = []
        let observation = try task.observe(\.name, initial: true) { old, new in seen.append("\(old)>\(new)") }
        #expect(seen == ["start>start"], "called at registration with the current value")
        task.name = "next"
        #expect(seen == ["start>start", "start>next"])
        observation.cancel()
        var byName: [ModelValue] = []
        try task.observe("name", initial: true) { _, new in byName.append(new) }
        #expect(byName == ["next"])
        var quiet = 0
        try task.observe(\.name) { _, _ in quiet += 1 }
        #expect(quiet == 0, "without initial: nothing until a change")
    }

    @Test func observeByColumnName() throws {
        let task = Task()
        var seen: [ModelValue] = []
        try task.observe("due_date") { _, new in seen.append(new) }
        try task.set("due_date", to: "2012-09-19")
        #expect(seen == [.date(Date(timeIntervalSince1970: 1_348_012_800))])
        #expect(throws: ModelError.self) { try task.observe("nope") { _, _ in } }
    }

    @Test func keyPathsThatAreNotOneColumnAreRejected() throws {
        let label = Label()
        let error = #expect(throws: ModelError.self) { try label.observe(\.summary) { _, _ in } }
        #expect(error?.kind == .notAColumn)
    }

    @Test func revertAndReloadNotify() throws {
        try withStore { (_: ArrayAdapter) throws in
            let task = Task(name: "a")
            try task.save()
            var seen: [String] = []
            try task.observe(\.name) { _, new in seen.append(new) }
            task.name = "b"
            task.revert()
            let other = try #require(try stored(task))
            other.name = "c"
            try other.save()
            try task.reload()
            #expect(seen == ["b", "a", "c"])
        }
    }

    @Test func oneWayBinding() throws {
        let task = Task(name: "first")
        let label = Label()
        let binding = try label.bind(\.title, to: task, \.name)
        #expect(label.title == "first")
        task.name = "second"
        #expect(label.title == "second")
        label.title = "local"
        #expect(task.name == "second")  // one way only
        binding.cancel()
        task.name = "third"
        #expect(label.title == "local")
    }

    @Test func twoWayBindingStopsEchoing() throws {
        let a = Label(), b = Label()
        a.size = 1
        var calls = 0
        try a.observe(\.size) { _, _ in calls += 1 }
        let binding = try b.bind(\.size, to: a, \.size, twoWay: true)
        #expect(b.size == 1)
        a.size = 2
        #expect(b.size == 2)
        b.size = 3
        #expect(a.size == 3)
        #expect(calls == 2)
        binding.cancel()
        b.size = 4
        #expect(a.size == 3)
    }

    @Test func bindingsDoNotKeepRecordsAlive() throws {
        let source = Task()
        weak var weakLabel: Label?
        do {
            let label = Label()
            weakLabel = label
            try label.bind(\.title, to: source, \.name)
        }
        #expect(weakLabel == nil)
        source.name = "after"  // the dead target is skipped
    }
}
