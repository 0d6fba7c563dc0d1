import ModelCore

/// `--micro-rows N`: what holding a record's row costs in each container the record could
/// keep it in (issue 41, Stop 72), per record made and freed: the `[ModelValue]` each
/// record holds today, a `ManagedBuffer` of values per record (freed by code specialised
/// for `ModelValue`), and one buffer shared by every record of a fetch (a record holds the
/// buffer and its offset). Each record is a final class instance, the row's values are
/// made before the clock starts (the same `Fixture.values`, copied in: a retain per
/// heap string, alike in each container), and the timed body makes `n` records and frees
/// them. "none" makes the records without a row: the container's own cost is the rest.
/// Each is timed in five rounds in rotated order (median), so none always runs first on a
/// heap that must grow.
enum RowStorage {
    /// A record holding its row as records do today.
    final class ArrayRecord {
        var values: [ModelValue]
        init(_ values: [ModelValue]) { self.values = values }
    }

    /// A row's values in one allocation, freed through specialised code.
    /// `header` is how many values are initialised.
    final class ValueBuffer: ManagedBuffer<Int, ModelValue> {
        deinit { _ = withUnsafeMutablePointers { count, values in values.deinitialize(count: count.pointee) } }
    }

    final class BufferRecord {
        let values: ValueBuffer
        init(_ values: ValueBuffer) { self.values = values }
    }

    /// One fetch's rows, end to end, shared by its records.
    final class SharedRows {
        let values: [ModelValue]
        init(_ values: [ModelValue]) { self.values = values }
    }

    final class SharedRecord {
        let rows: SharedRows
        let offset: Int
        init(_ rows: SharedRows, _ offset: Int) { (self.rows, self.offset) = (rows, offset) }
    }

    final class EmptyRecord {}

    static func run(_ n: Int) {
        let width = Fixture.values(0).count  // Person: the id and ten columns
        let flat = (0..<n).flatMap(Fixture.values)
        func report(_ name: String, _ d: Duration, against base: Duration) {
            let line = String(format: "%8.1f ns/record  %6.2f", nanoseconds(d, per: n), d / base)
            print(name.padding(toLength: 30, withPad: " ", startingAt: 0) + line)
        }
        print("a record's row of \(width) values, per record made and freed, n = \(n), median of 5 (ratio: to [ModelValue] per record)")
        let none = {
            var records: [EmptyRecord] = []
            records.reserveCapacity(n)
            for _ in 0..<n { records.append(EmptyRecord()) }
            blackHole(records)
        }
        let array = {
            var records: [ArrayRecord] = []
            records.reserveCapacity(n)
            for k in 0..<n {
                var row: [ModelValue] = []
                row.reserveCapacity(width)
                for c in 0..<width { row.append(flat[k * width + c]) }
                records.append(ArrayRecord(row))
            }
            blackHole(records)
        }
        let buffer = {
            var records: [BufferRecord] = []
            records.reserveCapacity(n)
            for k in 0..<n {
                let made = unsafeDowncast(ValueBuffer.create(minimumCapacity: width) { _ in 0 }, to: ValueBuffer.self)
                made.withUnsafeMutablePointers { count, values in
                    for c in 0..<width {
                        (values + c).initialize(to: flat[k * width + c])
                        count.pointee = c + 1
                    }
                }
                records.append(BufferRecord(made))
            }
            blackHole(records)
        }
        let shared = {
            var values: [ModelValue] = []
            values.reserveCapacity(n * width)
            for k in 0..<(n * width) { values.append(flat[k]) }
            let rows = SharedRows(values)
            var records: [SharedRecord] = []
            records.reserveCapacity(n)
            for k in 0..<n { records.append(SharedRecord(rows, k * width)) }
            blackHole(records)
        }
        // Five rounds, each running every container in a rotated order, and the median of
        // each: the first to allocate n rows pays the heap's growth (page faults), the
        // others reuse what it freed.
        let bodies: [() -> Void] = [none, array, buffer, shared]
        var times = Array(repeating: [Duration](), count: bodies.count)
        for round in 0..<5 {
            for k in 0..<bodies.count {
                let which = (k + round) % bodies.count
                times[which].append(time(bodies[which]))
            }
        }
        let medians = times.map { $0.sorted()[$0.count / 2] }
        report("no row (the record alone)", medians[0], against: medians[1])
        report("[ModelValue] per record", medians[1], against: medians[1])
        report("ManagedBuffer per record", medians[2], against: medians[1])
        report("one buffer per fetch", medians[3], against: medians[1])
    }
}
