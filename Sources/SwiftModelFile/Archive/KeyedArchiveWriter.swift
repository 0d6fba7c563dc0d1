import Foundation

/// Writes an archive in `NSKeyedArchiver`'s format, NSCoder style: begin an object, encode
/// values for keys, end it; containers and the binary plist are written as you go, in
/// linear time (Foundation's own archiver is quadratic in the object count on Linux).
///
/// The layout is the one Foundation produces and reads: a top dictionary with
/// `$archiver = "NSKeyedArchiver"`, `$version = 100000`, `$top = {root: UID}` and the
/// `$objects` table, whose entry 0 is `"$null"`. Integers, doubles and booleans are stored
/// inline in their object; strings, data, dates (`NSDate`, `NS.time`), UUIDs (`NSUUID`,
/// `NS.uuidbytes`), arrays (`NSArray`, `NS.objects`) and dictionaries (`NSDictionary`,
/// `NS.keys`/`NS.objects`) are `$objects` entries referred to by UID. A nil value is UID 0
/// (`$null`); a nil inside an array or dictionary is an `NSNull` object, as Foundation's
/// collections cannot hold nil.
///
/// ```swift
/// var writer = try KeyedArchiveWriter()
/// let name = try writer.key("name")
/// writer.beginObject(className: "Todo")
/// try writer.encode(.string("walk"), forKey: name)
/// let todo = try writer.endObject()
/// let bytes = try writer.finish(root: todo)
/// ```
struct KeyedArchiveWriter {
    /// A key written once and reused for every object that has it.
    struct Key { fileprivate let ref: UInt32 }
    /// An entry of `$objects`.
    struct ObjectID: Hashable { let index: Int }

    private var plist: BinaryPlistWriter
    private var objects: [UInt32] = []
    private var classes: [String: Int] = [:]
    private var strings: [String: Int] = [:]
    private var frames: [(className: String, keys: [UInt32], values: [UInt32])] = []
    private var depth = 0
    private var nullUID: UInt32 = 0
    private var classKey: UInt32 = 0
    private var nsNull: ObjectID?
    /// Per ``FoundationClass``: its keys (then `$class`) and its class UID.
    private var layouts: [(keys: [UInt32], classUID: UInt32)?] = Array(repeating: nil, count: FoundationClass.allCases.count)
    private var scratch: [UInt32] = []

    /// How many distinct strings are remembered for sharing. Repeated values (cities,
    /// states, tags) are met early and shared; past the limit new strings are written
    /// as they come, which keeps the table small enough to stay in cache, so saving
    /// stays linear in the number of records.
    static let sharedStringLimit = 1 << 15

    /// Creates an empty archive; `capacity` is a hint of the final size in bytes.
    init(capacity: Int = 1 << 16) throws(ArchiveWriteError) {
        plist = BinaryPlistWriter(capacity: capacity)
        objects.append(try plist.string("$null"))
        nullUID = try plist.uid(0)
        classKey = try plist.key("$class")
    }

    /// A key to encode values under.
    mutating func key(_ name: String) throws(ArchiveWriteError) -> Key { Key(ref: try plist.key(name)) }

    // MARK: - Objects

    /// Starts an object of class `className`; values encoded next belong to it until
    /// ``endObject()``. Objects nest.
    mutating func beginObject(className: String) {
        if depth == frames.count {
            frames.append((className, [], []))
        } else {
            frames[depth].className = className
            frames[depth].keys.removeAll(keepingCapacity: true)
            frames[depth].values.removeAll(keepingCapacity: true)
        }
        depth += 1
    }

    /// Encodes a value for `key` in the current object.
    mutating func encode(_ value: ModelValue, forKey key: Key) throws(ArchiveWriteError) {
        let ref: UInt32
        switch value {
        case .null: ref = nullUID
        case .bool(let b): ref = try plist.bool(b)
        case .int(let i): ref = try plist.int(i)
        case .double(let d): ref = try plist.real(d)
        default: ref = try plist.uid(try object(for: value).index)
        }
        frames[depth - 1].keys.append(key.ref)
        frames[depth - 1].values.append(ref)
    }

    /// Encodes an already written object for `key` in the current object.
    mutating func encode(_ object: ObjectID, forKey key: Key) throws(ArchiveWriteError) {
        frames[depth - 1].keys.append(key.ref)
        frames[depth - 1].values.append(try plist.uid(object.index))
    }

    /// Ends the current object and returns it.
    mutating func endObject() throws(ArchiveWriteError) -> ObjectID {
        depth -= 1
        let classUID = try plist.uid(try classEntry(frames[depth].className))
        frames[depth].keys.append(classKey)
        frames[depth].values.append(classUID)
        return add(try plist.dictionary(keys: frames[depth].keys, values: frames[depth].values))
    }

    /// An `NSArray` of written objects.
    mutating func array<C: Collection<ObjectID>>(_ elements: C) throws(ArchiveWriteError) -> ObjectID {
        var refs: [UInt32] = []
        refs.reserveCapacity(elements.count)
        for element in elements { refs.append(try plist.uid(element.index)) }
        return try container(.array, try plist.array(refs))
    }

    /// Appends the `$objects` table and the top dictionary; returns the file's bytes.
    mutating func finish(root: ObjectID) throws(ArchiveWriteError) -> [UInt8] {
        let table = try plist.array(objects)
        let top = try plist.dictionary(keys: [try plist.key("root")], values: [try plist.uid(root.index)])
        let keys = [try plist.key("$version"), try plist.key("$archiver"), try plist.key("$top"), try plist.key("$objects")]
        let values = [try plist.int(100_000), try plist.key("NSKeyedArchiver"), top, table]
        let topLevel = try plist.dictionary(keys: keys, values: values)
        return plist.finish(top: topLevel)
    }

    // MARK: - Values as objects

    /// The `$objects` entry holding `value` (entry 0 for nil; equal strings share one).
    mutating func object(for value: ModelValue) throws(ArchiveWriteError) -> ObjectID {
        switch value {
        case .null: return ObjectID(index: 0)
        case .bool(let b): return add(try plist.bool(b))
        case .int(let i): return add(try plist.int(i))
        case .double(let d): return add(try plist.real(d))
        case .string(let s):
            if let index = strings[s] { return ObjectID(index: index) }
            let id = add(try plist.string(s))
            if strings.count < Self.sharedStringLimit { strings[s] = id.index }
            return id
        case .data(let d): return add(try plist.data(d))
        case .date(let date):
            return try container(.date, try plist.real(date.timeIntervalSinceReferenceDate))
        case .uuid(let uuid):
            let bytes = withUnsafeBytes(of: uuid.uuid) { Data($0) }
            return try container(.uuid, try plist.data(bytes))
        case .array(let elements):
            var refs: [UInt32] = []
            refs.reserveCapacity(elements.count)
            for item in elements { refs.append(try plist.uid(try element(item).index)) }
            return try container(.array, try plist.array(refs))
        case .dictionary(let dictionary):
            var keys: [UInt32] = [], values: [UInt32] = []
            keys.reserveCapacity(dictionary.count)
            values.reserveCapacity(dictionary.count)
            for key in dictionary.keys.sorted() {
                keys.append(try plist.uid(try object(for: .string(key)).index))
                values.append(try plist.uid(try element(dictionary[key] ?? .null).index))
            }
            return try container(.dictionary, try plist.array(keys), try plist.array(values))
        }
    }

    /// A collection element: as ``object(for:)``, but nil is a shared `NSNull` object.
    private mutating func element(_ value: ModelValue) throws(ArchiveWriteError) -> ObjectID {
        guard value.isNull else { return try object(for: value) }
        if let nsNull { return nsNull }
        let id = try container(.null)
        nsNull = id
        return id
    }

    /// The Foundation classes values are written as, with their keys.
    private enum FoundationClass: Int, CaseIterable {
        case array, date, uuid, dictionary, null

        var name: String { ["NSArray", "NSDate", "NSUUID", "NSDictionary", "NSNull"][rawValue] }
        var keys: [String] { [["NS.objects"], ["NS.time"], ["NS.uuidbytes"], ["NS.keys", "NS.objects"], []][rawValue] }
    }

    /// An object of a Foundation class whose keys hold already written plist objects. Its
    /// keys and class are resolved once per archive, and no array is allocated per value.
    private mutating func container(_ kind: FoundationClass, _ first: UInt32? = nil, _ second: UInt32? = nil)
        throws(ArchiveWriteError) -> ObjectID
    {
        let layout: (keys: [UInt32], classUID: UInt32)
        if let cached = layouts[kind.rawValue] {
            layout = cached
        } else {
            var keys: [UInt32] = []
            for name in kind.keys { keys.append(try plist.key(name)) }
            keys.append(classKey)
            layout = (keys, try plist.uid(try classEntry(kind.name)))
            layouts[kind.rawValue] = layout
        }
        scratch.removeAll(keepingCapacity: true)
        if let first { scratch.append(first) }
        if let second { scratch.append(second) }
        scratch.append(layout.classUID)
        return add(try plist.dictionary(keys: layout.keys, values: scratch))
    }

    /// The class description entry (`$classname`, `$classes`), written once per class.
    private mutating func classEntry(_ name: String) throws(ArchiveWriteError) -> Int {
        if let index = classes[name] { return index }
        let names = try plist.array([try plist.key(name), try plist.key("NSObject")])
        let entry = try plist.dictionary(
            keys: [try plist.key("$classname"), try plist.key("$classes")], values: [try plist.key(name), names])
        let index = add(entry).index
        classes[name] = index
        return index
    }

    private mutating func add(_ ref: UInt32) -> ObjectID {
        objects.append(ref)
        return ObjectID(index: objects.count - 1)
    }
}
