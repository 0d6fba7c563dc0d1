/// One model's rows in memory: insertion-ordered slots with tombstones, and an id index.
///
/// Deleting leaves a `nil` slot (O(1)) so insertion order and positions hold; tombstones
/// are compacted away once they outnumber live rows (amortised O(1)), never while a
/// transaction is open (its journal refers to slots).
///
/// Only used under ``ArrayAdapter``'s lock, so its state needs no synchronisation of
/// its own; exclusivity is checked statically by that single-owner discipline.
final class ArrayTable {
    let schema: ModelSchema
    @exclusivity(unchecked) private(set) var slots: [[ModelValue]?] = []
    @exclusivity(unchecked) private var index = IDIndex()
    @exclusivity(unchecked) private(set) var live = 0
    @exclusivity(unchecked) var nextID: Int64 = 1

    init(schema: ModelSchema) { self.schema = schema }

    func slot(of id: ModelValue) -> Int? { index[id] }

    func row(at slot: Int) -> [ModelValue]? { slots[slot] }

    func row(id: ModelValue) -> [ModelValue]? { index[id].flatMap { slots[$0] } }

    /// Appends a row whose id is set and unused; returns its slot.
    func append(_ row: [ModelValue]) -> Int {
        let slot = slots.count
        slots.append(row)
        index[row[0]] = slot
        live += 1
        return slot
    }

    /// Removes the last slot (undoing an append).
    func removeLast(id: ModelValue) {
        slots.removeLast()
        index[id] = nil
        live -= 1
    }

    func replace(at slot: Int, with row: [ModelValue]) { slots[slot] = row }

    /// Tombstones a slot; returns the row that was there.
    func remove(id: ModelValue) -> (slot: Int, row: [ModelValue])? {
        guard let slot = index.removeValue(forKey: id), let row = slots[slot] else { return nil }
        slots[slot] = nil
        live -= 1
        return (slot, row)
    }

    /// Puts a tombstoned row back (undoing a remove).
    func restore(_ row: [ModelValue], at slot: Int) {
        slots[slot] = row
        index[row[0]] = slot
        live += 1
    }

    /// Drops tombstones when they outnumber live rows.
    func compactIfWorthIt() {
        let dead = slots.count - live
        guard dead > 64, dead > live else { return }
        var compacted: [[ModelValue]?] = []
        compacted.reserveCapacity(live)
        index = IDIndex()
        for case let row? in slots {
            index[row[0]] = compacted.count
            compacted.append(row)
        }
        slots = compacted
    }
}

extension ArrayTable: RowSource {
    /// Live rows in insertion order, read in place (rows are shared, not copied).
    var storeOrderRows: LiveRows { LiveRows(slots: slots) }

    func locate(id: ModelValue) -> (position: Int, row: [ModelValue])? {
        guard let slot = index[id], let row = slots[slot] else { return nil }
        return (slot, row)
    }
}

/// The live rows of a slot array, skipping tombstones (shares the array; no copy).
struct LiveRows: Sequence {
    let slots: [[ModelValue]?]

    struct Iterator: IteratorProtocol {
        let slots: [[ModelValue]?]
        var k = 0
        mutating func next() -> [ModelValue]? {
            while k < slots.count {
                defer { k += 1 }
                if let row = slots[k] { return row }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(slots: slots) }
    var underestimatedCount: Int { 0 }
}

/// id → slot. Integer ids (the common case) use an `Int64`-keyed dictionary, which hashes
/// and compares far faster than a general ``ModelValue`` key.
struct IDIndex {
    private var ints: [Int64: Int] = [:]
    private var others: [ModelValue: Int] = [:]

    subscript(id: ModelValue) -> Int? {
        get {
            if case .int(let i) = id { return ints[i] }
            return others[id]
        }
        set {
            if case .int(let i) = id { ints[i] = newValue } else { others[id] = newValue }
        }
    }

    mutating func removeValue(forKey id: ModelValue) -> Int? {
        if case .int(let i) = id { return ints.removeValue(forKey: i) }
        return others.removeValue(forKey: id)
    }
}
