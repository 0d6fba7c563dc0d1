import ArrayAdapter
import Foundation
import Testing

final class Scoped: Model {
    @Column var name: String = ""
    init() {}
}

final class Routed: Model {
    @Column var name: String = ""
    init() {}
}

/// Every test that sets a default or per-type store does it in private settings
/// (`ModelStore.withPrivateSettings`), so suites running in parallel never see it.
@Suite("Store resolution")
struct StoreResolutionTests {
    @Test func perCallBeatsScopeBeatsPerTypeBeatsDefault() throws {
        try ModelStore.withPrivateSettings { try resolutionOrder() }
    }

    private func resolutionOrder() throws {
        let global = ArrayAdapter(), perType = ArrayAdapter(), scoped = ArrayAdapter(), explicit = ArrayAdapter()
        ModelStore.setDefault(global)
        ModelStore.setAdapter(perType, for: Routed.self)
        try Scoped().save()
        try Routed().save()
        #expect(try Scoped.count(in: global) == 1)
        #expect(try Routed.count(in: perType) == 1)
        try ModelStore.using(scoped) {
            try Routed().save()
            try Scoped().save(to: explicit)
        }
        #expect(try Routed.count(in: scoped) == 1)
        #expect(try Scoped.count(in: explicit) == 1)
        #expect(try Routed.count(in: perType) == 1)
    }

    @Test func recordsRememberTheirStore() throws {
        let a = ArrayAdapter(), b = ArrayAdapter()
        let record = Scoped()
        try ModelStore.using(a) { try record.save() }
        try ModelStore.using(b) {
            record.name = "changed"
            try record.save()  // goes back to `a`
            #expect(try Scoped.count() == 0)
        }
        #expect(try Scoped.find(1, in: a)?.name == "changed")
    }

    @Test func privateSettingsStayInsideTheirScope() throws {
        let inside = ArrayAdapter()
        try ModelStore.withPrivateSettings { () throws in
            ModelStore.setDefault(inside)
            #expect(ModelStore.defaultAdapter === inside)
            try Scoped().save()
            try ModelStore.withPrivateSettings { () throws in
                #expect(ModelStore.defaultAdapter == nil, "a nested private scope starts empty")
            }
        }
        #expect(ModelStore.defaultAdapter !== inside, "the process default never saw it")
        #expect(try Scoped.count(in: inside) == 1)
    }

    @Test func noStoreIsATypedError() throws {
        let error = #expect(throws: ModelError.self) { try Scoped().save() }
        #expect(error?.kind == .noStore)
    }

    @Test func scopesAreTaskLocal() async throws {
        let a = ArrayAdapter(), b = ArrayAdapter()
        async let first: Void = ModelStore.using(a) { try await Self.insert(3) }
        async let second: Void = ModelStore.using(b) { try await Self.insert(5) }
        _ = try await (first, second)
        #expect(try await Scoped.count(in: a) == 3)
        #expect(try await Scoped.count(in: b) == 5)
    }

    static func insert(_ n: Int) async throws {
        for _ in 0..<n {
            try await Scoped().save()
            await Swift.Task.yield()
        }
    }
}
