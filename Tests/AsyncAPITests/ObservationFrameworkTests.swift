import ArrayAdapter
import Foundation
import Observation
import Testing

final class Quiet: Model {
    @Column var name = ""
    static var isObservable: Bool { false }
    init() {}
}

/// Each test with observation on for its own task (the default on platforms with SwiftUI),
/// leaving the process's setting alone for the suites running beside it.
struct ObservationOn: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await ModelObservation.using(enabled: true) { try await function() }
    }
}

/// Models are `Observable`: `withObservationTracking` (what SwiftUI uses) sees their
/// changes, record by record, with no code in the model.
@Suite(ObservationOn()) struct ObservationFrameworkTests {
    /// Tracks `read`; returns how many times a change fired since.
    func track(_ read: () -> Void) -> Tally {
        let fired = Tally()
        withObservationTracking(read) { fired.add() }
        return fired
    }

    @Test func propertyWritesNotifyTrackersOfThatRecordOnly() throws {
        let shelf = Shelf(), other = Shelf()
        let fired = track { _ = shelf.name }
        other.name = "elsewhere"
        #expect(fired.value == 0)
        shelf.name = "new"
        #expect(fired.value == 1)  // onChange fires once per tracking
        let again = track { _ = shelf.name }
        shelf.name = "new"  // an equal value changes nothing
        #expect(again.value == 0)
    }

    @Test func everyKindOfChangeIsSeen() async throws {
        let store = ArrayAdapter()
        let shelf = Shelf()
        shelf.name = "a"
        var fired = track { _ = shelf.name }
        try await shelf.save(to: store)  // the id the save assigns
        #expect(fired.value == 1)
        fired = track { _ = shelf.name }
        try shelf.set(["name": "by name"])
        #expect(fired.value == 1)
        fired = track { _ = shelf.name }
        try await Shelf.update(id: shelf.id ?? 0, set: ["name": "behind its back"], in: store)
        try await shelf.reload()
        #expect(fired.value == 1)
        fired = track { _ = shelf.name }
        shelf.name = "edit"
        #expect(fired.value == 1)
        fired = track { _ = shelf.name }
        shelf.revert()
        #expect(fired.value == 1)
        #expect(shelf.name == "behind its back")
    }

    @Test func modelsAndProcessesCanOptOut() {
        let quiet = Quiet()
        let fired = track { _ = quiet.name }
        quiet.name = "x"
        #expect(fired.value == 0)
        let processWide = ModelObservation.isEnabled
        ModelObservation.using(enabled: false) {
            let shelf = Shelf()
            let off = track { _ = shelf.name }
            shelf.name = "x"
            #expect(off.value == 0)
        }
        #expect(ModelObservation.isEnabled == processWide, "the scope ended with its body")
    }
}
