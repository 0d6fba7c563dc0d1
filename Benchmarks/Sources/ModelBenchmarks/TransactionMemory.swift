import ArrayAdapter
import Foundation

/// `--tx-memory [N]`: what one store transaction keeps per saved record until it ends —
/// the growth of the resident set over N inserts (then N updates) in one transaction,
/// against the same records saved one by one. Numbers are bytes per record.
enum TransactionMemory {
    static func run(_ n: Int) throws {
        func residentBytes() -> Int {
            // Linux: the current resident set, from /proc/self/statm (pages).
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
                let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
            else { return 0 }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }
        func measure(
            _ label: String, prepare: (ArrayAdapter, [Person]) throws -> Void = { _, _ in },
            _ body: (ArrayAdapter, [Person]) throws -> Void
        ) throws {
            let store = ArrayAdapter()
            let records = (0..<n).map { k -> Person in
                let p = Person()
                Fixture.fill(p, k)
                return p
            }
            try prepare(store, records)
            let before = residentBytes()
            var peak = before
            try body(store, records)
            peak = max(peak, residentBytes())
            print(label.padding(toLength: 36, withPad: " ", startingAt: 0) + String(format: "%8.0f bytes/record", Double(peak - before) / Double(n)))
        }
        print("\nTransaction memory, n = \(n) (resident-set growth per record)")
        try measure("insert, one by one") { store, records in
            for r in records { try r.save(to: store) }
        }
        try measure("insert, one transaction") { store, records in
            try store.transaction { for r in records { try r.save(to: store) } }
        }
        try measure("update, one by one", prepare: { store, records in for r in records { try r.save(to: store) } }) { _, records in
            for r in records {
                r.score += 1
                try r.save()
            }
        }
        try measure("update, one transaction", prepare: { store, records in for r in records { try r.save(to: store) } }) {
            store, records in
            try store.transaction {
                for r in records {
                    r.score += 1
                    try r.save()
                }
            }
        }
    }
}
