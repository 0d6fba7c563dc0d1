import ArrayAdapter
import Foundation

/// `--micro`: per-operation costs of the pieces behind the workloads, for profiling.
enum Micro {
    static func run() throws {
        let n = 100_000
        let (store, _) = try seededStore(n)
        let schema = Person.schema
        func report(_ name: String, _ d: Duration) {
            let ns = (Double(d.components.seconds) * 1e18 + Double(d.components.attoseconds)) / 1e9 / Double(n)
            print(name.padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: "%8.1f ns/op", ns))
        }
        report("Person()", time { for _ in 0..<n { blackHole(Person()) } })
        report("Person() + read", time { for _ in 0..<n { blackHole(Person().age) } })
        report("adapter find", try time { for k in 0..<n { blackHole(try store.find(id: .int(Int64(k + 1)), in: schema)) } })
        report("Person.find", try time { for k in 0..<n { blackHole(try Person.find(Int64(k + 1), in: store)) } })
        let p = Person()
        report("set column", time { for k in 0..<n { p.age = k } })
        report("get column", time { var s = 0; for _ in 0..<n { s &+= p.age }; blackHole(s) })
        report("fill 10 columns", time { for k in 0..<n { Fixture.fill(p, k) } })
    }
}
