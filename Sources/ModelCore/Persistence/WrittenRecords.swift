/// The records one transaction level wrote: each holds how to restore its state before the
/// level (see ``RecordUndo``).
///
/// A record is held strongly (``held``) while something besides the level holds it too,
/// so that writing a record in a transaction gives it no weak reference. A weak reference
/// allocates the record a side table for the rest of its life and moves every later retain
/// and release of it onto the runtime's slow path (see Docs/Benchmarks.md, "Stop 63").
///
/// A record only the level holds moves to a weak reference (``loosened``) and ends as it
/// would outside the transaction, taking its undo with it. The level checks the record
/// written before each new one (a loop saving records it does not keep drops each before
/// saving the next), and sweeps all of them each time the list doubles from its size after
/// the last sweep (and not before ``sweepFloor`` records). So a level keeps at most about
/// as many ended records as live ones, and the checks cost a few instructions a record,
/// amortized. Records written from another isolation are held weakly from the start, so the
/// level never ends their life on its own thread.
///
/// A record moves to its weak reference before the strong one goes: a weak reference to
/// it loaded elsewhere meanwhile (a context's, on another thread) keeps the record alive,
/// and the level still finds it. The strong references let go are handed to the caller to
/// drop after unlocking, since a record may end then.
package struct WrittenRecords {
    /// Records held strongly, oldest first.
    private var held: [ModelObject] = []
    /// Records held weakly, oldest first.
    private var loosened: [WeakRecord] = []
    /// The count at which the next sweep runs.
    private var sweepAt = WrittenRecords.sweepFloor

    /// The fewest records a level collects before it sweeps.
    static let sweepFloor = 1_024

    /// A record held weakly.
    struct WeakRecord {
        weak var record: ModelObject?
    }

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
            loosened.append(WeakRecord(record: previous))
            released.previous = previous
        }
        if weakly {
            loosened.append(WeakRecord(record: record))
        } else {
            held.append(record)
        }
        if held.count + loosened.count >= sweepAt { released.swept = sweep() }
        return released
    }

    /// Moves the records only the level holds to weak references and drops the weak ones
    /// whose record has ended; returns the strong references it took out.
    mutating func sweep() -> [ModelObject] {
        loosened.removeAll { $0.record == nil }
        var released: [ModelObject] = []
        var kept = 0
        for k in held.indices {
            if isKnownUniquelyReferenced(&held[k]) {
                loosened.append(WeakRecord(record: held[k]))
                released.append(held[k])
            } else {
                if kept != k { held.swapAt(kept, k) }
                kept += 1
            }
        }
        held.removeSubrange(kept...)
        sweepAt = Swift.max(Self.sweepFloor, (held.count + loosened.count) * 2)
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
