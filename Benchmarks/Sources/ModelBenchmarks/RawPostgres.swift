import CLibPQRaw
import Foundation

/// The raw libpq baseline: one connection, prepared statements, binary parameters and
/// results, and pipeline mode for batches of writes — the best technique for each workload.
final class RawPostgres {
    let conn: OpaquePointer

    init(_ conninfo: String) throws {
        guard let conn = PQconnectdb(conninfo), PQstatus(conn) == CONNECTION_OK else {
            throw BenchmarkError("libpq connect failed")
        }
        self.conn = conn
    }

    deinit { PQfinish(conn) }

    func exec(_ sql: String) throws {
        let result = PQexec(conn, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw BenchmarkError("exec failed: \(String(cString: PQerrorMessage(conn)))")
        }
    }

    func prepare(_ name: String, _ sql: String) throws {
        let result = PQprepare(conn, name, sql, 0, nil)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else { throw BenchmarkError("prepare failed: \(sql)") }
    }

    /// Binary parameters: each a big-endian buffer (nil for NULL).
    static func withParams<R>(_ values: [[UInt8]?], _ body: (UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = []
        for value in values {
            if let value {
                let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, value.count))
                value.withUnsafeBytes { UnsafeMutableRawPointer(p).copyMemory(from: $0.baseAddress!, byteCount: value.count) }
                pointers.append(p)
            } else {
                pointers.append(nil)
            }
        }
        defer { for p in pointers { p?.deallocate() } }
        let lengths = values.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: values.count)
        return pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
            lengths.withUnsafeBufferPointer { l in formats.withUnsafeBufferPointer { f in body(v.baseAddress!, l.baseAddress!, f.baseAddress!) } }
        }
    }

    /// Runs a prepared statement with binary parameters and binary results.
    func query(_ name: String, _ values: [[UInt8]?]) throws -> OpaquePointer {
        let result = Self.withParams(values) { v, l, f in PQexecPrepared(conn, name, Int32(values.count), v, l, f, 1) }
        guard let result, PQresultStatus(result) == PGRES_TUPLES_OK || PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw BenchmarkError("query failed: \(String(cString: PQerrorMessage(conn)))")
        }
        return result
    }

    /// Sends `rows` executions of a prepared statement in pipeline mode, in batches of 1,000
    /// (a sync per batch), and reads every result.
    func pipeline(_ name: String, _ rows: [[[UInt8]?]]) throws {
        guard PQenterPipelineMode(conn) == 1 else { throw BenchmarkError("pipeline mode refused") }
        defer { PQexitPipelineMode(conn) }
        var start = 0
        while start < rows.count {
            let batch = rows[start..<min(rows.count, start + 1_000)]
            for values in batch {
                let sent = Self.withParams(values) { v, l, f in PQsendQueryPrepared(conn, name, Int32(values.count), v, l, f, 1) }
                guard sent == 1 else { throw BenchmarkError("send failed") }
            }
            guard PQpipelineSync(conn) == 1 else { throw BenchmarkError("sync failed") }
            var synced = false
            while !synced {
                guard let result = PQgetResult(conn) else { continue }
                let status = PQresultStatus(result)
                PQclear(result)
                if status == PGRES_PIPELINE_SYNC { synced = true }
                else if status == PGRES_FATAL_ERROR || status == PGRES_PIPELINE_ABORTED {
                    throw BenchmarkError("pipeline failed: \(String(cString: PQerrorMessage(conn)))")
                }
            }
            start += batch.count
        }
    }

    static func int8(_ v: Int64) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
    static func float8(_ v: Double) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.bigEndian) { Array($0) } }
    static func bool(_ v: Bool) -> [UInt8] { [v ? 1 : 0] }
    static func text(_ v: String) -> [UInt8] { Array(v.utf8) }
    static func timestamptz(_ d: Date) -> [UInt8] {
        int8(Int64(((d.timeIntervalSinceReferenceDate + 31_622_400) * 1_000_000).rounded()))
    }

    /// A person's ten columns as binary parameters.
    static func params(_ r: PersonRow) -> [[UInt8]?] {
        [text(r.name), text(r.email), int8(Int64(r.age)), float8(r.score), bool(r.active), timestamptz(r.joined),
         r.notes.map(text), int8(r.rank), float8(r.balance), text(r.city)]
    }

    // Binary result readers.
    @inline(__always) static func int8(_ result: OpaquePointer, _ row: Int32, _ col: Int32) -> Int64 {
        UnsafeRawPointer(PQgetvalue(result, row, col)!).loadUnaligned(as: Int64.self).bigEndian
    }
    @inline(__always) static func float8(_ result: OpaquePointer, _ row: Int32, _ col: Int32) -> Double {
        Double(bitPattern: UInt64(bitPattern: int8(result, row, col)))
    }
    @inline(__always) static func text(_ result: OpaquePointer, _ row: Int32, _ col: Int32) -> String {
        let p = UnsafeRawPointer(PQgetvalue(result, row, col)!)
        return String(decoding: UnsafeRawBufferPointer(start: p, count: Int(PQgetlength(result, row, col))), as: UTF8.self)
    }

    /// Row `row` of a `SELECT id, <ten columns>` result.
    static func person(_ result: OpaquePointer, _ row: Int32) -> PersonRow {
        PersonRow(
            id: int8(result, row, 0), name: text(result, row, 1), email: text(result, row, 2), age: Int(int8(result, row, 3)),
            score: float8(result, row, 4), active: PQgetvalue(result, row, 5)!.pointee != 0,
            joined: Date(timeIntervalSinceReferenceDate: Double(int8(result, row, 6)) / 1e6 - 31_622_400),
            notes: PQgetisnull(result, row, 7) != 0 ? nil : text(result, row, 7), rank: int8(result, row, 8),
            balance: float8(result, row, 9), city: text(result, row, 10))
    }
}
