/// SwiftModel's archive layout on top of the keyed-archive format:
///
/// ```text
/// root: SwiftModelArchive { format: 1, tables: NSArray<SwiftModelTable> }
/// SwiftModelTable { name, model, schemaVersion, nextID, columns: NSArray<NSString>,
///                   records: NSArray<Record> }
/// Record (class named after the model) { <column>: value, … }
/// ```
///
/// A bare `NSArray` of records as the root (what MotionModel's `serialize_to_file` wrote)
/// reads as one table without a name.
extension KeyedArchiveWriter {
    /// Writes `tables` as one archive and returns the file's bytes.
    static func archive(_ tables: [TableSnapshot]) throws(ArchiveWriteError) -> [UInt8] {
        let estimate = tables.reduce(0) { $0 + $1.count * $1.columns.count * 12 }
        var writer = try KeyedArchiveWriter(capacity: max(1 << 16, estimate))
        var tableIDs: [ObjectID] = []
        for table in tables { tableIDs.append(try writer.write(table)) }
        let list = try writer.array(tableIDs)
        writer.beginObject(className: ArchiveNames.archiveClass)
        try writer.encode(.int(ArchiveNames.currentFormat), forKey: try writer.key(ArchiveNames.format))
        try writer.encode(list, forKey: try writer.key(ArchiveNames.tables))
        let root = try writer.endObject()
        return try writer.finish(root: root)
    }

    private mutating func write(_ table: TableSnapshot) throws(ArchiveWriteError) -> ObjectID {
        var keys: [Key] = []
        for column in table.columns { keys.append(try key(column)) }
        var records: [ObjectID] = []
        records.reserveCapacity(table.count)
        var index = 0
        for row in table.rows {
            beginObject(className: table.model)
            let missing = table.absent[index] ?? []
            for (column, key) in keys.enumerated() where missing.isEmpty || !missing.contains(column) {
                try encode(row[column], forKey: key)
            }
            records.append(try endObject())
            index += 1
        }
        let recordList = try array(records)
        var columnNames: [ObjectID] = []
        for column in table.columns { columnNames.append(try object(for: .string(column))) }
        let columnList = try array(columnNames)
        beginObject(className: ArchiveNames.tableClass)
        try encode(.string(table.name), forKey: try key(ArchiveNames.name))
        try encode(.string(table.model), forKey: try key(ArchiveNames.model))
        try encode(.int(Int64(table.version)), forKey: try key(ArchiveNames.schemaVersion))
        try encode(.int(table.nextID), forKey: try key(ArchiveNames.nextID))
        try encode(columnList, forKey: try key(ArchiveNames.columns))
        try encode(recordList, forKey: try key(ArchiveNames.records))
        return try endObject()
    }
}

/// What gets written for one table: a consistent snapshot taken under the store's lock.
struct TableSnapshot: Sendable {
    var name: String
    var model: String
    var version: Int
    var nextID: Int64
    var columns: [String]
    var count: Int
    var rows: AnySequenceOfRows
    var absent: [Int: [Int]] = [:]
}

/// Rows to write, without copying them out of the store: its slots (skipping deleted
/// ones) or a plain array.
enum AnySequenceOfRows: Sequence, Sendable {
    case slots([[ModelValue]?])
    case rows([[ModelValue]])

    func makeIterator() -> AnyIterator<[ModelValue]> {
        switch self {
        case .slots(let slots):
            var k = 0
            return AnyIterator {
                while k < slots.count {
                    defer { k += 1 }
                    if let row = slots[k] { return row }
                }
                return nil
            }
        case .rows(let rows):
            var iterator = rows.makeIterator()
            return AnyIterator { iterator.next() }
        }
    }
}

extension KeyedArchiveReader {
    /// Every table in the archive.
    func tables() throws(PlistError) -> [ArchivedTable] {
        let root = try keyedObject(self.root)
        if Self.arrayClasses.contains(root.className) {
            return [try table(name: nil, model: nil, version: 1, nextID: nil, declared: [], records: self.root)]
        }
        // Objects are recognised by their keys, not their class names, so archives from
        // Foundation (which names classes `Module.Class` on Linux) read too.
        let hasTables = try reference(forKey: ArchiveNames.tables, in: root) != nil
        guard root.className == ArchiveNames.archiveClass || hasTables else {
            throw .notKeyedArchive("the root object is a \(root.className), not a \(ArchiveNames.archiveClass)")
        }
        if case .int(let format)? = try decode(forKey: ArchiveNames.format, in: root), format > ArchiveNames.currentFormat {
            throw .unsupported("archive format \(format) is newer than this SwiftModel reads (\(ArchiveNames.currentFormat))")
        }
        guard let listRef = try reference(forKey: ArchiveNames.tables, in: root) else { return [] }
        guard case .uid(let list) = try plist.object(listRef) else { throw .malformed("tables is not an object") }
        var tables: [ArchivedTable] = []
        for uid in try elementUIDs(list) {
            let object = try keyedObject(uid)
            guard case .string(let name)? = try decode(forKey: ArchiveNames.name, in: object) else {
                throw .malformed("a table without a name")
            }
            var model: String?
            if case .string(let m)? = try decode(forKey: ArchiveNames.model, in: object) { model = m }
            var version = 1
            if case .int(let v)? = try decode(forKey: ArchiveNames.schemaVersion, in: object) {
                guard v >= 1, v <= Int64(Int32.max) else { throw .malformed("table \(name) has schema version \(v)") }
                version = Int(v)
            }
            var nextID: Int64?
            if case .int(let n)? = try decode(forKey: ArchiveNames.nextID, in: object) { nextID = n }
            var declared: [String] = []
            if case .array(let names)? = try decode(forKey: ArchiveNames.columns, in: object) {
                for case .string(let column) in names { declared.append(column) }
            }
            guard let recordsRef = try reference(forKey: ArchiveNames.records, in: object),
                case .uid(let records) = try plist.object(recordsRef)
            else { throw .malformed("table \(name) has no records") }
            tables.append(
                try table(name: name, model: model, version: version, nextID: nextID, declared: declared, records: records))
        }
        return tables
    }

    /// Decodes a records array. Keys are shared between records, so each record's keys are
    /// matched to columns by reference, remembering the previous record's layout.
    private func table(name: String?, model: String?, version: Int, nextID: Int64?, declared: [String], records: Int)
        throws(PlistError) -> ArchivedTable
    {
        let uids = try elementUIDs(records)
        var columns = declared
        var columnByName: [String: Int] = [:]
        for (k, column) in columns.enumerated() where columnByName[column] == nil { columnByName[column] = k }
        var columnByKeyRef: [Int: Int] = [:]
        var objects: [BinaryPlistReader.Container] = []
        objects.reserveCapacity(uids.count)
        // Pass 1: every record's entries, and the columns their keys name.
        for uid in uids {
            guard case .dictionary(let entries) = try entry(uid) else { throw .malformed("record \(uid) is not an object") }
            objects.append(entries)
            for k in 0..<entries.count {
                let keyRef = plist.reference(entries, k)
                if columnByKeyRef[keyRef] != nil { continue }
                let key = try keyName(keyRef)
                if key == "$class" {
                    columnByKeyRef[keyRef] = -1
                } else if let column = columnByName[key] {
                    columnByKeyRef[keyRef] = column
                } else {
                    columns.append(key)
                    columnByName[key] = columns.count - 1
                    columnByKeyRef[keyRef] = columns.count - 1
                }
            }
        }
        // Pass 2: values.
        var table = ArchivedTable(name: name, model: model, version: version, nextID: nextID, columns: columns, records: [])
        table.records.reserveCapacity(objects.count)
        var stamp = [Int](repeating: -1, count: columns.count)
        var lastKeys: [Int] = [], lastColumns: [Int] = []
        for (index, entries) in objects.enumerated() {
            var row = [ModelValue](repeating: .null, count: columns.count)
            var seen = 0
            for k in 0..<entries.count {
                let keyRef = plist.reference(entries, k)
                let column: Int
                if k < lastKeys.count, lastKeys[k] == keyRef {
                    column = lastColumns[k]
                } else {
                    column = columnByKeyRef[keyRef] ?? -1
                    if k < lastKeys.count {
                        lastKeys[k] = keyRef
                        lastColumns[k] = column
                    } else {
                        lastKeys.append(keyRef)
                        lastColumns.append(column)
                    }
                }
                guard column >= 0, stamp[column] != index else { continue }
                stamp[column] = index
                seen += 1
                row[column] = try value(at: plist.reference(entries, entries.count + k), depth: 1)
            }
            if seen < columns.count {
                table.absent[index] = (0..<columns.count).filter { stamp[$0] != index }
            }
            table.records.append(row)
        }
        return table
    }
}
