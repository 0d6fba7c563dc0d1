/// The records one transaction level wrote: each holds how to restore its state before the
/// level (see ``RecordUndo``).
///
/// A record is held strongly (``held``) while something besides the level holds it too,
/// so that writing a record in a transaction gives it no weak reference. (The weak ones are
/// ``WeakRecord``s, which give the record no side table, but each still costs a try-retain
/// to read and keeps the record's memory until the level sweeps it.)
///
/// A record only the level holds ends as it would outside the transaction, taking its undo
/// with it: the level lets go of it at once when no other thread can reach it, else keeps
/// a weak reference to it (``loosened``). The level checks the record
/// written before each new one (a loop saving records it does not keep drops each before
/// saving the next), and sweeps all of them each time the list doubles from its size after
/// the last sweep (and not before ``sweepFloor`` records). So a level keeps at most about
/// as many ended records as live ones, and the checks cost a few instructions a record,
/// amortized. Records written from another isolation are held weakly from the start, so the
/// level never ends their life on its own thread.
///
/// Another thread can reach a record only the level holds only through a weak reference
/// SwiftModel keeps elsewhere (a context's identity map, the table of provisional ids, a
/// child's link to its owner), each of which marks the record (``ModelObject/__heldWeakly``):
/// a record is not `Sendable`, so no reference of the app's to it is on another thread
/// while its writer uses it. (A change a level queues holds its record weakly too, but
/// only the committing thread reads it, after the level is done with its records.)
/// Such a record moves to a weak reference before the strong one goes: the weak reference
/// loaded elsewhere meanwhile keeps the record alive, and the level still finds it. Any
/// other record is let go without one: forming a Swift `weak` one gave every record a loop
/// drops a side table, about 1,500 instructions a save with the sweeps it led to
/// (Docs/Benchmarks.md, "Stop 65"). The strong references let go are handed to the caller
/// to drop after unlocking, since a record may end then.
package struct WrittenRecords {
    /// Records held strongly, oldest first.
    private var held: [ModelObject] = []
    /// Records held weakly, oldest first.
    private var loosened: [WeakRecord] = []
    /// The count at which the next sweep runs.
    private var sweepAt = WrittenRecords.sweepFloor
    /// Records let go without a weak reference since the last sweep: they count towards
    /// the next one as if they were still listed, so the sweeps run when they did while
    /// every record let go stayed listed weakly.
    private var letGoSinceSweep = 0

    /// The fewest records a level collects before it sweeps.
    static let sweepFloor = 1_024

    /// Strong references a level let go of, for the caller to drop after unlocking.
    struct Released {
        var previous: ModelObject?
        var swept: [ModelObject] = []
    }

    /// An empty list.
    init() {}

    /// Whether the level wrote no record.
    var isEmpty: Bool { held.isEmpty && loosened.isEmpty }

    /// Adds `record`, held strongly unless `weakly`. Returns what the level let go of:
    /// at most the previous record, unless a sweep ran.
    mutating func append(_ record: ModelObject, weakly: Bool) -> Released {
        var released = Released()
        // The previous record, when the caller has dropped it since: it ends about when it
        // would outside a transaction, and its memory is reused at once (freeing a
        // thousand records in one sweep instead cost about 1,300 instructions an insert,
        // in malloc).
        if !held.isEmpty, isKnownUniquelyReferenced(&held[held.count - 1]) {
            let previous = held.removeLast()
            if previous.__heldWeakly {
                loosened.append(WeakRecord(previous))
            } else {
                letGoSinceSweep += 1
            }
            released.previous = previous
        }
        if weakly {
            loosened.append(WeakRecord(record))
        } else {
            held.append(record)
        }
        if held.count + loosened.count + letGoSinceSweep >= sweepAt { released.swept = sweep() }
        return released
    }

    /// Lets go of the records only the level holds (keeping a weak reference to those
    /// another thread can reach) and drops the weak ones whose record has ended; returns
    /// the strong references it took out.
    mutating func sweep() -> [ModelObject] {
        loosened.removeAll { $0.record == nil }
        var released: [ModelObject] = []
        var kept = 0
        for k in held.indices {
            if isKnownUniquelyReferenced(&held[k]) {
                if held[k].__heldWeakly { loosened.append(WeakRecord(held[k])) }
                released.append(held[k])
            } else {
                if kept != k { held.swapAt(kept, k) }
                kept += 1
            }
        }
        held.removeSubrange(kept...)
        sweepAt = Swift.max(Self.sweepFloor, (held.count + loosened.count) * 2)
        letGoSinceSweep = 0
        return released
    }

    /// The records that still exist, held strongly ones first, each group oldest first.
    var records: [ModelObject] {
        held + loosened.compactMap(\.record)
    }

    /// Calls `body` with each record that still exists, in the order of ``records``,
    /// without collecting them into an array first (a commit visits every record once).
    func forEachRecord(_ body: (ModelObject) -> Void) {
        for record in held { body(record) }
        for entry in loosened {
            if let record = entry.record { body(record) }
        }
    }

    /// Adds the records of a committed nested level that `keep` accepts, each held as it
    /// was there (see ``UndoLedger/merge(_:level:into:_:)``).
    mutating func append(_ other: WrittenRecords, where keep: (ModelObject) -> Bool) {
        held += other.held.filter(keep)
        loosened += other.loosened.filter { $0.record.map(keep) ?? false }
    }
}

extension ModelObject {
    /// Marks the record as held weakly by SwiftModel outside a transaction level (see
    /// ``__heldWeakly``); call it before the weak reference is stored. Writes
    /// only the first time, so registering a record again reads the flag and nothing more.
    package final func _noteHeldWeakly() {
        if !__heldWeakly { __heldWeakly = true }
    }
}
