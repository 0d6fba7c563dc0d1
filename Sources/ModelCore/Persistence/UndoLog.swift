/// The records one transaction level wrote, in the order it wrote them, each with how to
/// put back its state before the level (``RecordUndo``).
///
/// The level owns its undo: one contiguous log instead of an array on every record
/// written. A write in a transaction allocates nothing for its undo (the log grows
/// amortized), takes no lock besides the handle's, and a commit drops the whole log at
/// once. (An undo array on each record cost about 800 instructions a write in a
/// transaction: the allocation, a process-wide lock, and finding and freeing each entry
/// at commit; Docs/Benchmarks.md, "Stop 68".) The record keeps only the number of the
/// innermost level holding an undo for it (``ModelObject/__undoLevel``), so a second write
/// at the same level makes none.
///
/// A record is held strongly while something besides the level holds it too, so that
/// writing a record in a transaction gives it no weak reference. (The weak ones are
/// ``WeakRecord``s, which give the record no side table, but each still costs a try-retain
/// to read and keeps the record's memory until the level sweeps it.)
///
/// A record only the level holds ends as it would outside the transaction, and its undo
/// goes with it: there is nothing left to put back. The level lets go of it at once when
/// no other thread can reach it, else keeps a weak reference to it. The level checks the
/// record written before each new one (a loop saving records it does not keep drops each
/// before saving the next), and sweeps all of them each time the log doubles from its size
/// after the last sweep (and not before ``sweepFloor`` records). So a level keeps at most
/// about as many ended records as live ones, and the checks cost a few instructions a
/// record, amortized. Records written from another isolation are held weakly from the
/// start, so the level never ends their life on its own thread.
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
/// (Docs/Benchmarks.md, "Stop 65"). What the log lets go of is handed to the caller to
/// drop after unlocking, since a record may end then (and run a model's `deinit`).
///
/// Not `Sendable`: an open level's log is read and changed holding its handle's lock; a
/// popped level's log belongs to the thread ending the level.
package struct UndoLog {
    /// One record the level wrote, and its undo.
    struct Entry {
        /// The record, while something besides the level holds it (or nothing can reach it
        /// from another thread); nil when held weakly.
        var strong: ModelObject?
        /// The record, held weakly; nil when held strongly.
        var weak: WeakRecord?
        /// How to put the record back as it was before the level.
        let undo: RecordUndo
        /// The record's ``ModelObject/__undoLevel`` before this entry was made: the next
        /// level out holding an undo for it (or a level already ended, or 0).
        let outer: UInt64

        /// The record, or nil once it has ended.
        var record: ModelObject? { strong ?? weak?.record }
    }

    /// What the log let go of, for the caller to drop after unlocking: a record (when
    /// the log held it strongly), its undo (when the log dropped that with it), or both.
    struct Item {
        var record: ModelObject?
        var undo: RecordUndo?
    }

    /// What a write let go of, for the caller to drop after unlocking.
    struct Released {
        /// The previous record's entry, when the log let go of the record and its undo.
        var previous: Entry?
        /// The previous record, when the log let go of it but keeps its undo (holding the
        /// record weakly).
        var loosened: ModelObject?
        /// A sweep's, when one ran.
        var swept: [Item] = []
    }

    /// The entries, oldest first, in chunks of at most ``chunkSize``: one array of every
    /// entry, grown by doubling, was copied at each growth and, past the allocator's
    /// threshold for mapping memory of its own, took fresh pages from the system in every
    /// long transaction (about 3,500 page faults in 50,000 updates).
    private var chunks: [[Entry]] = []
    /// How many entries the chunks hold.
    private(set) var count = 0
    /// The count at which the next sweep runs.
    private var sweepAt = UndoLog.sweepFloor
    /// Records let go without a weak reference since the last sweep: they count towards
    /// the next one as if they were still listed, so the sweeps run when they did while
    /// every record let go stayed listed weakly.
    private var letGoSinceSweep = 0

    /// The fewest records a level collects before it sweeps.
    static let sweepFloor = 1_024
    /// The most entries a chunk holds: about 18 KB, well under the allocator's threshold
    /// for memory of its own, so chunks come from the heap and are reused.
    static let chunkSize = 128

    /// An empty log.
    init() {}

    /// Whether the level wrote no record (that still has an entry).
    var isEmpty: Bool { count == 0 }

    /// The entries, oldest first.
    var entries: FlattenSequence<[[Entry]]> { chunks.joined() }

    /// The records that still exist, oldest first.
    var records: [ModelObject] { entries.compactMap(\.record) }

    /// How many entries the log holds for `record`.
    func entryCount(for record: ModelObject) -> Int {
        entries.count { $0.strong === record || ($0.weak?.refers(to: record) ?? false) }
    }

    /// Adds `record`'s undo, the record held strongly unless `weakly`; `outer` is the
    /// record's ``ModelObject/__undoLevel`` before this write. Adds to `released` what the
    /// log let go of: at most the previous record, unless a sweep ran. (The undo is taken
    /// and `released` is the caller's: copying either cost about 200 instructions a write.)
    mutating func append(
        _ record: ModelObject, weakly: Bool, undo: consuming RecordUndo, outer: UInt64, releasing released: inout Released
    ) {
        // The previous record, when the caller has dropped it since: it ends about when it
        // would outside a transaction, and its memory is reused at once (freeing a
        // thousand records in one sweep instead cost about 1,300 instructions an insert,
        // in malloc).
        let c = chunks.count - 1
        if c >= 0, let k = chunks[c].indices.last, isKnownUniquelyReferenced(&chunks[c][k].strong) {
            letGoOfLast(into: &released)
        }
        // The entry made in place (made first, it was copied in: about 200 instructions).
        if c < 0 || chunks[c].count == Self.chunkSize { chunks.append(Self.emptyChunk()) }
        chunks[chunks.count - 1].append(
            Entry(strong: weakly ? nil : record, weak: weakly ? WeakRecord(record) : nil, undo: undo, outer: outer))
        count += 1
        if count + letGoSinceSweep >= sweepAt { released.swept = sweep() }
    }

    /// A new chunk, with room for ``chunkSize`` entries.
    private static func emptyChunk() -> [Entry] {
        var chunk: [Entry] = []
        chunk.reserveCapacity(chunkSize)
        return chunk
    }

    /// Adds `entry` at the end of `chunks`, in a new chunk when the last is full (merges
    /// and packing; a write makes its entry in place instead).
    private static func add(_ entry: consuming Entry, to chunks: inout [[Entry]]) {
        if chunks.last.map({ $0.count == chunkSize }) ?? true { chunks.append(emptyChunk()) }
        chunks[chunks.count - 1].append(entry)
    }

    /// Lets go of the last entry's record, which only the log holds: a record another
    /// thread can reach (``ModelObject/__heldWeakly``) stays listed weakly; any other goes
    /// with its undo.
    private mutating func letGoOfLast(into released: inout Released) {
        let c = chunks.count - 1
        let k = chunks[c].count - 1
        if chunks[c][k].strong?.__heldWeakly ?? false {
            guard let record = chunks[c][k].strong.take() else { return }
            chunks[c][k].weak = WeakRecord(record)
            released.loosened = record
        } else {
            letGoSinceSweep += 1
            count -= 1
            released.previous = chunks[c].removeLast()
        }
    }

    /// Lets go of the records only the level holds (keeping a weak reference to those
    /// another thread can reach) and drops the entries of records that have ended; returns
    /// what it took out. Each chunk is compacted in place (through its buffer: checking
    /// the chunk's uniqueness at each entry cost about 20 instructions a record in a long
    /// update loop); the chunks are packed again when they are less than half full.
    mutating func sweep() -> [Item] {
        var released: [Item] = []
        count = 0
        for c in chunks.indices {
            let kept = chunks[c].withUnsafeMutableBufferPointer { buffer in
                var kept = 0
                for k in buffer.indices {
                    var keeps = true
                    if buffer[k].strong != nil {
                        if isKnownUniquelyReferenced(&buffer[k].strong), let record = buffer[k].strong.take() {
                            if record.__heldWeakly {
                                buffer[k].weak = WeakRecord(record)
                                released.append(Item(record: record, undo: nil))
                            } else {
                                released.append(Item(record: record, undo: buffer[k].undo))
                                keeps = false
                            }
                        }
                    } else if buffer[k].weak?.record == nil {
                        released.append(Item(record: nil, undo: buffer[k].undo))
                        keeps = false
                    }
                    if keeps {
                        if kept != k { buffer.swapAt(kept, k) }
                        kept += 1
                    }
                }
                return kept
            }
            chunks[c].removeSubrange(kept...)
            count += kept
        }
        if count * 2 < chunks.count * Self.chunkSize { pack() }
        sweepAt = Swift.max(Self.sweepFloor, count * 2)
        letGoSinceSweep = 0
        return released
    }

    /// Moves the entries into as few chunks as hold them, in order (moved, not copied).
    private mutating func pack() {
        var packed: [[Entry]] = []
        var old: [[Entry]] = []
        swap(&old, &chunks)
        // Popped from the end, each chunk and each entry taken out unique.
        old.reverse()
        while var chunk = old.popLast() {
            chunk.reverse()
            while let entry = chunk.popLast() { Self.add(entry, to: &packed) }
        }
        chunks = packed
    }
}

extension UndoLog {
    /// The records of a rolled-back `level` that still exist, each with its undo, newest
    /// first (a record written twice at the level, which only writes in transactions on
    /// two stores interleaving can cause, is put back to its earliest state last). Each
    /// record's ``ModelObject/__undoLevel`` goes back to the level out from this one.
    consuming func takeForRollback(level: UInt64) -> [(ModelObject, RecordUndo)] {
        var taken: [(ModelObject, RecordUndo)] = []
        taken.reserveCapacity(count)
        for entry in chunks.reversed().lazy.flatMap({ $0.reversed() }) {
            guard let record = entry.record else { continue }
            _ = record.__undoLevel.compareExchange(expected: level, desired: entry.outer, ordering: .relaxed)
            taken.append((record, entry.undo))
        }
        return taken
    }

    /// Takes the entries of a committed nested `level` into this log, the level around
    /// it (`outerLevel`), except where this level already holds an earlier state of the
    /// record. Returns what it dropped, for the caller to release after unlocking.
    mutating func absorb(_ inner: consuming UndoLog, level: UInt64, into outerLevel: UInt64) -> [Item] {
        var dropped: [Item] = []
        for entry in inner.entries {
            guard let record = entry.record else {
                dropped.append(Item(record: nil, undo: entry.undo))
                continue
            }
            _ = record.__undoLevel.compareExchange(expected: level, desired: outerLevel, ordering: .relaxed)
            if entry.outer == outerLevel {
                dropped.append(Item(record: record, undo: entry.undo))
            } else {
                Self.add(entry, to: &chunks)
                count += 1
                dropped.append(Item(record: record, undo: nil))
            }
        }
        return dropped
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
