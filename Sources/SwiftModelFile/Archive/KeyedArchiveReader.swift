import Foundation

/// Reads `NSKeyedArchiver`-format archives, NSCoder style: objects are keyed values
/// (`decode(forKey:)`), references are followed through `$objects`, and Foundation's
/// value classes (`NSString`, `NSNumber`, `NSData`, `NSDate`, `NSUUID`, `NSArray`,
/// `NSDictionary`, `NSNull`, and their mutable variants) decode to ``ModelValue``s.
///
/// Archives from Foundation's `NSKeyedArchiver` read as well as our own: any object
/// order, reference width or sharing. Nesting deeper than ``maximumDepth`` (including a
/// cycle) is an error, not a stack overflow.
final class KeyedArchiveReader {
    /// One keyed object: its class and its entries.
    struct KeyedObject {
        let className: String
        let entries: BinaryPlistReader.Container
    }

    static let maximumDepth = 64

    let plist: BinaryPlistReader
    private let objects: BinaryPlistReader.Container
    /// The root object's UID.
    let root: Int
    private var keyNames: [Int: String] = [:]
    private var classNames: [Int: String] = [:]

    init(_ plist: BinaryPlistReader) throws(PlistError) {
        self.plist = plist
        guard case .dictionary(let top) = try plist.object(plist.top) else {
            throw .notKeyedArchive("the top object is not a dictionary")
        }
        var archiver: String?, objectTable: BinaryPlistReader.Container?, topEntries: BinaryPlistReader.Container?
        for k in 0..<top.count {
            let value = plist.reference(top, top.count + k)
            switch try plist.string(plist.reference(top, k)) {
            case "$archiver": archiver = try plist.string(value)
            case "$objects": if case .array(let c) = try plist.object(value) { objectTable = c }
            case "$top": if case .dictionary(let c) = try plist.object(value) { topEntries = c }
            default: break
            }
        }
        guard archiver == "NSKeyedArchiver" else {
            throw .notKeyedArchive("$archiver is \(archiver.map { "\"\($0)\"" } ?? "missing"), not \"NSKeyedArchiver\"")
        }
        guard let objectTable, let topEntries else { throw .notKeyedArchive("$objects or $top is missing") }
        objects = objectTable
        var root: Int?
        for k in 0..<topEntries.count where try plist.string(plist.reference(topEntries, k)) == "root" {
            if case .uid(let uid) = try plist.object(plist.reference(topEntries, topEntries.count + k)) { root = uid }
        }
        guard let root else { throw .notKeyedArchive("$top has no root object") }
        self.root = root
    }

    // MARK: - Objects

    /// The plist object of `$objects[uid]`.
    func entry(_ uid: Int) throws(PlistError) -> BinaryPlistReader.Object {
        guard uid >= 0, uid < objects.count else { throw .malformed("UID \(uid) is past the \(objects.count) objects") }
        return try plist.object(plist.reference(objects, uid))
    }

    /// The keyed object at `uid` (a dictionary with a `$class`).
    func keyedObject(_ uid: Int) throws(PlistError) -> KeyedObject {
        guard case .dictionary(let entries) = try entry(uid) else { throw .malformed("object \(uid) is not a keyed object") }
        for k in 0..<entries.count where try keyName(plist.reference(entries, k)) == "$class" {
            guard case .uid(let classUID) = try plist.object(plist.reference(entries, entries.count + k)) else {
                throw .malformed("object \(uid) has a $class that is not a UID")
            }
            return KeyedObject(className: try className(classUID), entries: entries)
        }
        throw .malformed("object \(uid) has no $class")
    }

    /// The plist reference stored for `key` in `object`, if the key is present.
    func reference(forKey key: String, in object: KeyedObject) throws(PlistError) -> Int? {
        let entries = object.entries
        for k in 0..<entries.count where try keyName(plist.reference(entries, k)) == key {
            return plist.reference(entries, entries.count + k)
        }
        return nil
    }

    /// Decodes the value stored for `key` (`nil` when absent). `depth` is the nesting of
    /// `object` itself, so a value that refers back to its own object is an error.
    func decode(forKey key: String, in object: KeyedObject, depth: Int = 0) throws(PlistError) -> ModelValue? {
        guard let ref = try reference(forKey: key, in: object) else { return nil }
        return try value(at: ref, depth: depth)
    }

    /// The UIDs of an `NSArray` (or set) object's elements.
    func elementUIDs(_ uid: Int) throws(PlistError) -> [Int] {
        let object = try keyedObject(uid)
        guard Self.arrayClasses.contains(object.className) else {
            throw .unsupported("expected an array, found \(object.className)")
        }
        guard let ref = try reference(forKey: "NS.objects", in: object) else { return [] }
        guard case .array(let list) = try plist.object(ref) else { throw .malformed("NS.objects is not an array") }
        var uids: [Int] = []
        uids.reserveCapacity(list.count)
        for k in 0..<list.count {
            guard case .uid(let element) = try plist.object(plist.reference(list, k)) else {
                throw .malformed("an array element is not a UID")
            }
            uids.append(element)
        }
        return uids
    }

    // MARK: - Values

    /// A value stored in a keyed object's slot: inline (numbers, booleans) or a UID.
    func value(at ref: Int, depth: Int) throws(PlistError) -> ModelValue {
        switch try plist.object(ref) {
        case .uid(let uid): return try value(ofObject: uid, depth: depth)
        case let other: return try primitive(other, where: "a keyed value")
        }
    }

    /// The value `$objects[uid]` holds.
    func value(ofObject uid: Int, depth: Int) throws(PlistError) -> ModelValue {
        if uid == 0 { return .null }
        guard depth < Self.maximumDepth else { throw .malformed("objects nest deeper than \(Self.maximumDepth) levels") }
        let object = try entry(uid)
        guard case .dictionary = object else { return try primitive(object, where: "object \(uid)") }
        let keyed = try keyedObject(uid)
        switch keyed.className {
        case "NSDate":
            switch try decode(forKey: "NS.time", in: keyed, depth: depth + 1) {
            case .double(let time): return .date(Date(timeIntervalSinceReferenceDate: time))
            case .int(let time): return .date(Date(timeIntervalSinceReferenceDate: Double(time)))
            default: throw .malformed("an NSDate without NS.time")
            }
        case "NSUUID":
            guard case .data(let bytes)? = try decode(forKey: "NS.uuidbytes", in: keyed, depth: depth + 1), bytes.count == 16 else {
                throw .malformed("an NSUUID without 16 NS.uuidbytes")
            }
            var uuid = UUID().uuid
            withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes) }
            return .uuid(UUID(uuid: uuid))
        case "NSNull":
            return .null
        case "NSString", "NSMutableString":
            if case .string(let s)? = try decode(forKey: "NS.string", in: keyed, depth: depth + 1) { return .string(s) }
            if case .data(let d)? = try decode(forKey: "NS.bytes", in: keyed, depth: depth + 1) { return .string(String(decoding: d, as: UTF8.self)) }
            throw .malformed("an NSString without NS.string")
        case "NSData", "NSMutableData":
            guard case .data(let d)? = try decode(forKey: "NS.data", in: keyed, depth: depth + 1) else { throw .malformed("an NSData without NS.data") }
            return .data(d)
        case let name where Self.arrayClasses.contains(name):
            var elements: [ModelValue] = []
            for element in try elementUIDs(uid) { elements.append(try value(ofObject: element, depth: depth + 1)) }
            return .array(elements)
        case "NSDictionary", "NSMutableDictionary":
            return try dictionary(keyed, depth: depth)
        case let name:
            throw .unsupported("objects of class \(name) are not values SwiftModel stores")
        }
    }

    private func dictionary(_ keyed: KeyedObject, depth: Int) throws(PlistError) -> ModelValue {
        guard let keysRef = try reference(forKey: "NS.keys", in: keyed),
            let valuesRef = try reference(forKey: "NS.objects", in: keyed)
        else { return .dictionary([:]) }
        guard case .array(let keys) = try plist.object(keysRef), case .array(let values) = try plist.object(valuesRef),
            keys.count == values.count
        else { throw .malformed("an NSDictionary whose NS.keys and NS.objects differ") }
        var result: [String: ModelValue] = [:]
        result.reserveCapacity(keys.count)
        for k in 0..<keys.count {
            guard case .string(let key) = try value(at: plist.reference(keys, k), depth: depth + 1) else {
                throw .unsupported("an NSDictionary with a key that is not a string")
            }
            result[key] = try value(at: plist.reference(values, k), depth: depth + 1)
        }
        return .dictionary(result)
    }

    private func primitive(_ object: BinaryPlistReader.Object, where place: String) throws(PlistError) -> ModelValue {
        switch object {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .real(let d): return .double(d)
        case .date(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
        case .data(let range): return .data(plist.data(range))
        case .asciiString(let range): return .string(plist.string(ascii: range))
        case .utf16String(let range): return .string(plist.string(utf16: range))
        case .uid, .array, .dictionary: throw .malformed("\(place) is a plist container, not a value")
        }
    }

    // MARK: - Names

    /// A dictionary key's text (keys are shared, so cached by reference).
    func keyName(_ ref: Int) throws(PlistError) -> String {
        if let name = keyNames[ref] { return name }
        guard let name = try plist.string(ref) else { throw .malformed("a key (object \(ref)) is not a string") }
        keyNames[ref] = name
        return name
    }

    private func className(_ uid: Int) throws(PlistError) -> String {
        if let name = classNames[uid] { return name }
        guard case .dictionary(let entries) = try entry(uid) else { throw .malformed("class \(uid) is not a dictionary") }
        for k in 0..<entries.count where try keyName(plist.reference(entries, k)) == "$classname" {
            guard let name = try plist.string(plist.reference(entries, entries.count + k)) else { break }
            classNames[uid] = name
            return name
        }
        throw .malformed("class \(uid) has no $classname")
    }

    static let arrayClasses: Set<String> = ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet"]
}
