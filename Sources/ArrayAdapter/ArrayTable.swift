/// One model's rows in memory: insertion-ordered slots with tombstones, and an id index.
///
/// Deleting leaves a `nil` slot (O(1)) so insertion order and positions hold; tombstones
/// are compacted away once they outnumber live rows (amortised O(1)), never while a
/// transaction is open (its journal refers to slots).
struct ArrayTable {
    let schema: ModelSchema
    private(set) var slots: [[ModelValue]?] = []
    private(set) var index: [ModelValue: Int] = [:]
    private(set) var live = 0
    var nextID: Int64 = 1

    init(schema: ModelSchema) { self.schema = schema }

    /// Live rows in insertion order.
    var rows: LazyMapSequence<LazyFilterSequence<[[ModelValue]?]>, [ModelValue]> {
        slots.lazy.filter { $0 != nil }.map { $0.unsafelyUnwrapped }
    }

    func slot(of id: ModelValue) -> Int? { index[id] }

    func row(at slot: Int) -> [ModelValue]? { slots[slot] }

    /// Appends a row whose id is set and unused; returns its slot.
    mutating func append(_ row: [ModelValue]) -> Int {
        let slot = slots.count
        slots.append(row)
        index[row[0]] = slot
        live += 1
        return slot
    }

    /// Removes the last slot (undoing an append).
    mutating func removeLast(id: ModelValue) {
        slots.removeLast()
        index[id] = nil
        live -= 1
    }

    mutating func replace(at slot: Int, with row: [ModelValue]) { slots[slot] = row }

    /// Tombstones a slot; returns the row that was there.
    mutating func remove(id: ModelValue) -> (slot: Int, row: [ModelValue])? {
        guard let slot = index.removeValue(forKey: id), let row = slots[slot] else { return nil }
        slots[slot] = nil
        live -= 1
        return (slot, row)
    }

    /// Puts a tombstoned row back (undoing a remove).
    mutating func restore(_ row: [ModelValue], at slot: Int) {
        slots[slot] = row
        index[row[0]] = slot
        live += 1
    }

    mutating func removeAll() {
        slots = []
        index = [:]
        live = 0
    }

    /// Drops tombstones when they outnumber live rows.
    mutating func compactIfWorthIt() {
        let dead = slots.count - live
        guard dead > 64, dead > live else { return }
        var compacted: [[ModelValue]?] = []
        compacted.reserveCapacity(live)
        index.removeAll(keepingCapacity: true)
        for case let row? in slots {
            index[row[0]] = compacted.count
            compacted.append(row)
        }
        slots = compacted
    }
}
