import ArrayAdapter
import Foundation
import Testing

/// Eager loads link records by key: integer keys through their own table, every other key
/// (UUID, string) as a value, with the same answers. Each owner gets its children in the
/// query's order, each child its parent, and a key no row has links nothing.
@Suite struct EagerLinkingTests {
    @Test func uuidKeysLinkLikeIntegerKeys() throws {
        try withStore { (_: ArrayAdapter) throws in
            let apollo = try Project.create(["name": "apollo"])
            let gemini = try Project.create(["name": "gemini"])
            for title in ["fuel", "heat", "comms"] { try apollo.issues.create(["title": title]) }
            try gemini.issues.create(["title": "docking"])
            try Issue.create(["title": "unfiled"])
            let stray = try Issue.create(["title": "stray"])
            try stray.set("project_id", to: .uuid(UUID()))  // no project has it
            try stray.save()

            let projects = try Project.query().order(by: "name").including(\.issues) { $0.order(by: "title") }.all()
            #expect(projects.map { ($0.issues.loaded ?? []).map(\.title) } == [["comms", "fuel", "heat"], ["docking"]])
            #expect(projects.allSatisfy { project in (project.issues.loaded ?? []).allSatisfy { $0.project === project } })

            let issues = try Issue.query().order(by: "title").including(\.project).all()
            let parents = Dictionary(uniqueKeysWithValues: issues.map { ($0.title, $0.project?.name) })
            #expect(parents == ["comms": "apollo", "docking": "gemini", "fuel": "apollo", "heat": "apollo", "stray": nil, "unfiled": nil])
            // Children of one parent share one loaded record.
            let apolloIssues = issues.filter { $0.project?.name == "apollo" }
            #expect(apolloIssues.count == 3 && apolloIssues.allSatisfy { $0.project === apolloIssues[0].project })
        }
    }

    @Test func stringKeysLinkLikeIntegerKeys() throws {
        try withStore { (_: ArrayAdapter) throws in
            for (id, name) in [("fr", "France"), ("it", "Italy"), ("1", "One")] {
                let nation = Nation()
                nation.id = id
                nation.name = name
                try nation.save()
            }
            try Town.create(["name": "Paris", "nation_id": "fr"])
            try Town.create(["name": "Rome", "nation_id": "it"])
            try Town.create(["name": "Lyon", "nation_id": "fr"])
            try Town.create(["name": "Nowhere", "nation_id": "xx"])

            let nations = try Nation.query().order(by: "name").including(\.towns) { $0.order(by: "name") }.all()
            #expect(nations.map { ($0.name, ($0.towns.loaded ?? []).map(\.name)) }.map { "\($0.0): \($0.1)" } == [
                "France: [\"Lyon\", \"Paris\"]", "Italy: [\"Rome\"]", "One: []",
            ])
            let towns = try Town.query().order(by: "name").including(\.nation).all()
            #expect(towns.map { $0.nation?.name } == ["France", nil, "France", "Italy"])
        }
    }

    /// The key table keeps `.int` keys apart from every other case, as `ModelValue`
    /// equality does: `.int(1)` is not `.double(1)` nor `.string("1")`.
    @Test func keyPositionsMatchModelValueEquality() {
        var positions = KeyPositions(minimumCapacity: 4)
        let one = UUID(uuidString: "00000000-0000-0000-0000-000000000001") ?? UUID()
        let inserted = [
            positions.insert(.int(1), at: 0), positions.insert(.string("1"), at: 1), positions.insert(.double(1), at: 2),
            positions.insert(.int(1), at: 3), positions.insert(.uuid(one), at: 4),
        ]
        #expect(inserted == [true, true, true, false, true])  // a key's first position stays
        #expect(positions[.int(1)] == 0)
        #expect(positions[.string("1")] == 1)
        #expect(positions[.double(1)] == 2)
        #expect(positions[.int(2)] == nil)
        #expect(positions[.bool(true)] == nil)
        #expect(positions[.uuid(one)] == 4)
    }
}
