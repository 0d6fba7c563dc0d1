import ModelEngine

/// One model's rows in memory: insertion-ordered slots with tombstones, and an id index.
///
/// Deleting leaves a `nil` slot (O(1)) so insertion order and positions hold; tombstones
/// are compacted away once they outnumber live rows (amortised O(1)), never while a
/// transaction is open (its journal refers to slots).
///
/// Only used under ``ArrayAdapter``'s lock, so its state needs no synchronisation of
/// its own; exclusivity is checked statically by that single-owner discipline. (Without
/// `@exclusivity(unchecked)`, `Scripts/instructions.py --adapter array --n 5000` counts
/// lookups by id +11 %, update all +9.5 %, delete half +31 %.)
final class ArrayTable {
    let schema: ModelSchema
    @exclusivity(unchecked) private(set) var slots: [[ModelValue]?] = []
    @exclusivity(unchecked) private var index = IDIndex()
    @exclusivity(unchecked) private(set) var live = 0
    @exclusivity(unchecked) var nextID: Int64 = 1
    /// Secondary indexes of `.indexed` and `.unique` columns (foreign keys are indexed).
    @exclusivity(unchecked) private var secondary: [Int: ColumnIndex] = [:]
    /// The `.unique` columns (their values are in `secondary`).
    let uniqueColumns: [Int]

    init(schema: ModelSchema) {
        self.schema = schema
        for column in schema.columns.dropFirst() where !column.options.isDisjoint(with: [.indexed, .unique]) {
            secondary[column.index] = ColumnIndex()
        }
        uniqueColumns = schema.columns.dropFirst().filter { $0.options.contains(.unique) }.map(\.index)
    }

    /// The first unique column where `row` repeats a value another live row holds (the row
    /// at `slot`, being replaced, excepted), or nil. Nulls never collide, as in SQL.
    func uniqueConflict(_ row: [ModelValue], replacing slot: Int? = nil) -> Int? {
        for column in uniqueColumns where !row[column].isNull {
            if secondary[column]?.slots(for: row[column]).contains(where: { $0 != slot }) == true { return column }
        }
        return nil
    }

    /// The first unique column that setting `values` on the rows at `slots` would leave
    /// with one non-null value in two rows, or nil.
    func uniqueConflict(setting values: [Int: ModelValue], onSlots slots: [Int]) -> Int? {
        for column in uniqueColumns {
            guard let value = values[column], !value.isNull else { continue }
            var holders = Set(secondary[column]?.slots(for: value) ?? [])
            holders.formUnion(slots)
            if holders.count > 1 { return column }
        }
        return nil
    }

    func slot(of id: ModelValue) -> Int? { index[id] }

    func row(at slot: Int) -> [ModelValue]? { slots[slot] }

    func row(id: ModelValue) -> [ModelValue]? { index[id].flatMap { slots[$0] } }

    /// Appends a row whose id is set and unused; returns its slot.
    func append(_ row: [ModelValue]) -> Int {
        let slot = slots.count
        slots.append(row)
        index[row[0]] = slot
        live += 1
        if !secondary.isEmpty { indexRow(row, at: slot) }
        return slot
    }

    /// Removes the last slot (undoing an append).
    func removeLast(id: ModelValue) {
        if !secondary.isEmpty, let row = slots.last ?? nil { unindexRow(row, at: slots.count - 1) }
        slots.removeLast()
        index[id] = nil
        live -= 1
    }

    func replace(at slot: Int, with row: [ModelValue]) {
        if !secondary.isEmpty, let old = slots[slot] {
            for (column, _) in secondary where old[column] != row[column] {
                secondary[column]?.remove(old[column], slot)
                secondary[column]?.insert(row[column], slot)
            }
        }
        slots[slot] = row
    }

    /// Tombstones a slot; returns the row that was there.
    func remove(id: ModelValue) -> (slot: Int, row: [ModelValue])? {
        guard let slot = index.removeValue(forKey: id), let row = slots[slot] else { return nil }
        slots[slot] = nil
        live -= 1
        if !secondary.isEmpty { unindexRow(row, at: slot) }
        return (slot, row)
    }

    /// Puts a tombstoned row back (undoing a remove).
    func restore(_ row: [ModelValue], at slot: Int) {
        slots[slot] = row
        index[row[0]] = slot
        live += 1
        if !secondary.isEmpty { indexRow(row, at: slot) }
    }

    private func indexRow(_ row: [ModelValue], at slot: Int) {
        for column in secondary.keys { secondary[column]?.insert(row[column], slot) }
    }

    private func unindexRow(_ row: [ModelValue], at slot: Int) {
        for column in secondary.keys { secondary[column]?.remove(row[column], slot) }
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
        if !secondary.isEmpty {
            for column in secondary.keys { secondary[column] = ColumnIndex() }
            for (slot, row) in compacted.enumerated() { if let row { indexRow(row, at: slot) } }
        }
    }
}

extension ArrayTable: RowSource {
    /// Live rows in insertion order, read in place (rows are shared, not copied).
    var storeOrderRows: LiveRows { LiveRows(slots: slots) }

    // Reading through the buffer skips the array's bounds and uniqueness checks.
    func rows(where test: ([ModelValue]) -> Bool?) -> [[ModelValue]] {
        var matches: [[ModelValue]] = []
        slots.withUnsafeBufferPointer { buffer in
            for k in buffer.indices { if let row = buffer[k], test(row) == true { matches.append(row) } }
        }
        return matches
    }

    func countRows(where test: ([ModelValue]) -> Bool?) -> Int {
        var count = 0
        slots.withUnsafeBufferPointer { buffer in
            for k in buffer.indices { if let row = buffer[k], test(row) == true { count += 1 } }
        }
        return count
    }

    func indexedRows(column: Int, equalTo values: [ModelValue]) -> [(position: Int, row: [ModelValue])]? {
        var found: [(position: Int, row: [ModelValue])] = []
        if column == 0 {
            for id in values { if let slot = index[id], let row = slots[slot] { found.append((slot, row)) } }
            return found
        }
        guard let columnIndex = secondary[column] else { return nil }
        for value in values {
            for slot in columnIndex.slots(for: value) { if let row = slots[slot] { found.append((slot, row)) } }
        }
        return found
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

/// value → slots (ascending) for one column; nulls are not indexed (`=` never matches
/// them).
struct ColumnIndex {
    private var slotsByValue: [IndexKey: [Int]] = [:]

    func slots(for value: ModelValue) -> [Int] { slotsByValue[IndexKey(value)] ?? [] }

    mutating func insert(_ value: ModelValue, _ slot: Int) {
        if value.isNull { return }
        let key = IndexKey(value)
        var list = slotsByValue[key] ?? []
        if let last = list.last, last > slot {
            list.insert(slot, at: list.firstIndex { $0 > slot } ?? list.count)
        } else {
            list.append(slot)
        }
        slotsByValue[key] = list
    }

    mutating func remove(_ value: ModelValue, _ slot: Int) {
        if value.isNull { return }
        let key = IndexKey(value)
        guard var list = slotsByValue[key], let k = list.firstIndex(of: slot) else { return }
        list.remove(at: k)
        slotsByValue[key] = list.isEmpty ? nil : list
    }
}

/// id → slot. Integer ids (the common case) use an `Int64`-keyed dictionary, which hashes
/// and compares far faster than a general ``ModelValue`` key.
struct IDIndex {
    private var ints: [Int64: Int] = [:]
    /// Other ids (text by its bytes, see ``IndexKey``).
    private var others: [IndexKey: Int] = [:]

    subscript(id: ModelValue) -> Int? {
        get {
            if case .int(let i) = id { return ints[i] }
            return others[IndexKey(id)]
        }
        set {
            if case .int(let i) = id { ints[i] = newValue } else { others[IndexKey(id)] = newValue }
        }
    }

    mutating func removeValue(forKey id: ModelValue) -> Int? {
        if case .int(let i) = id { return ints.removeValue(forKey: i) }
        return others.removeValue(forKey: IndexKey(id))
    }
}
