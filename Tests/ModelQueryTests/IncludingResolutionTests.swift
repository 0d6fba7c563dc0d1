import ArrayAdapter
import Foundation
import Synchronization
import Testing

/// `including(…)` resolves its key path to a relation or a column once per key path, not by
/// instantiating the model on every execution.
@Suite struct IncludingResolutionTests {
    /// Counts every instance made: prototypes included.
    final class Shelf: Model {
        static let made = Atomic<Int>(0)
        @Column var name = ""
        @HasMany var volumes: Children<Volume>
        init() { Self.made.add(1, ordering: .relaxed) }
    }

    final class Volume: Model {
        static let made = Atomic<Int>(0)
        @Column var title = ""
        @BelongsTo var shelf: Shelf?
        init() { Self.made.add(1, ordering: .relaxed) }
    }

    @Test func keyPathsAreResolvedOncePerKeyPath() throws {
        try ModelStore.using(ArrayAdapter()) {
            for name in ["a", "b"] {
                let shelf = try Shelf.create(["name": name])
                for k in 0..<3 { try shelf.volumes.create(["title": "\(name)\(k)"]) }
            }
            // Warm up: the first executions may build schemas and resolve the key paths.
            _ = try Shelf.query().including(\.volumes).all()
            _ = try Volume.query().including(\.shelf).all()

            let shelvesBefore = Shelf.made.load(ordering: .relaxed), volumesBefore = Volume.made.load(ordering: .relaxed)
            let shelves = try Shelf.query().including(\.volumes).all()
            #expect(Shelf.made.load(ordering: .relaxed) - shelvesBefore == shelves.count, "one instance per loaded shelf, no prototype")
            #expect(Volume.made.load(ordering: .relaxed) - volumesBefore == 6, "one instance per loaded volume")

            let volumesBefore2 = Volume.made.load(ordering: .relaxed), shelvesBefore2 = Shelf.made.load(ordering: .relaxed)
            let volumes = try Volume.query().including(\.shelf).all()
            #expect(Volume.made.load(ordering: .relaxed) - volumesBefore2 == volumes.count, "no prototype volume")
            #expect(Shelf.made.load(ordering: .relaxed) - shelvesBefore2 == 2, "one instance per distinct parent")
            #expect(volumes.map { $0.shelf?.name } == ["a", "a", "a", "b", "b", "b"])
        }
    }
}
