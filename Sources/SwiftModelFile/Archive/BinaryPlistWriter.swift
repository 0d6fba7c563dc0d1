import Foundation

/// Writes a binary property list (`bplist00`) in one pass, in linear time.
///
/// Objects are appended as they are made and referred to by index; containers are
/// written after their elements, so the top object comes last. Object references are a
/// fixed 4 bytes (enough for 4 billion objects; readers accept any width that fits), and
/// the offset table's width is chosen at the end from the file size.
///
/// Equal strings used as keys, small integers, booleans and UIDs are written once and
/// shared, as Core Foundation's writer does.
struct BinaryPlistWriter {
    private(set) var bytes: [UInt8]
    private var offsets: [Int] = []
    private var keys: [String: UInt32] = [:]
    private var smallInts: [UInt32]
    private var uids: [UInt32] = []
    private var booleans: (UInt32, UInt32)?

    static let referenceSize = 4
    private static let noObject = UInt32.max
    private static let smallIntRange: Range<Int64> = 0..<4096

    init(capacity: Int = 1 << 16) {
        bytes = Array("bplist00".utf8)
        bytes.reserveCapacity(capacity)
        offsets.reserveCapacity(capacity / 6)
        smallInts = Array(repeating: Self.noObject, count: Self.smallIntRange.count)
    }

    /// How many objects were written.
    var objectCount: Int { offsets.count }

    // MARK: - Scalars

    private mutating func begin() throws(ArchiveWriteError) -> UInt32 {
        guard offsets.count < Int(UInt32.max) else { throw ArchiveWriteError.tooManyObjects }
        offsets.append(bytes.count)
        return UInt32(offsets.count - 1)
    }

    mutating func bool(_ value: Bool) throws(ArchiveWriteError) -> UInt32 {
        if let booleans { return value ? booleans.1 : booleans.0 }
        let no = try begin()
        bytes.append(0x08)
        let yes = try begin()
        bytes.append(0x09)
        booleans = (no, yes)
        return value ? yes : no
    }

    mutating func int(_ value: Int64) throws(ArchiveWriteError) -> UInt32 {
        let small = Self.smallIntRange.contains(value)
        if small, smallInts[Int(value)] != Self.noObject { return smallInts[Int(value)] }
        let ref = try begin()
        appendInt(value)
        if small { smallInts[Int(value)] = ref }
        return ref
    }

    /// An integer's marker and bytes (big-endian; 1, 2 and 4 bytes are unsigned, 8 signed).
    private mutating func appendInt(_ value: Int64) {
        if value >= 0 && value <= 0xFF {
            bytes.append(0x10)
            bytes.append(UInt8(value))
        } else if value >= 0 && value <= 0xFFFF {
            bytes.append(0x11)
            appendBigEndian(UInt64(value), width: 2)
        } else if value >= 0 && value <= 0xFFFF_FFFF {
            bytes.append(0x12)
            appendBigEndian(UInt64(value), width: 4)
        } else {
            bytes.append(0x13)
            appendBigEndian(UInt64(bitPattern: value), width: 8)
        }
    }

    mutating func real(_ value: Double) throws(ArchiveWriteError) -> UInt32 {
        let ref = try begin()
        bytes.append(0x23)
        appendBigEndian(value.bitPattern, width: 8)
        return ref
    }

    mutating func data(_ value: Data) throws(ArchiveWriteError) -> UInt32 {
        let ref = try begin()
        appendMarker(0x40, count: value.count)
        bytes.append(contentsOf: value)
        return ref
    }

    /// A string, written as ASCII when it is, UTF-16 big-endian otherwise. Not shared.
    mutating func string(_ value: String) throws(ArchiveWriteError) -> UInt32 {
        let ref = try begin()
        var value = value
        let ascii = value.withUTF8 { utf8 -> Bool in
            var high: UInt8 = 0
            for byte in utf8 { high |= byte }
            guard high < 0x80 else { return false }
            appendMarker(0x50, count: utf8.count)
            bytes.append(contentsOf: utf8)
            return true
        }
        if !ascii {
            let units = value.utf16
            appendMarker(0x60, count: units.count)
            for unit in units {
                bytes.append(UInt8(truncatingIfNeeded: unit >> 8))
                bytes.append(UInt8(truncatingIfNeeded: unit))
            }
        }
        return ref
    }

    /// A string written once however often it is used (dictionary keys, class names).
    mutating func key(_ value: String) throws(ArchiveWriteError) -> UInt32 {
        if let ref = keys[value] { return ref }
        let ref = try string(value)
        keys[value] = ref
        return ref
    }

    /// A keyed-archive UID (an index into `$objects`), written once per value.
    mutating func uid(_ value: Int) throws(ArchiveWriteError) -> UInt32 {
        if value < uids.count, uids[value] != Self.noObject { return uids[value] }
        let ref = try begin()
        if value <= 0xFF {
            bytes.append(0x80)
            bytes.append(UInt8(value))
        } else if value <= 0xFFFF {
            bytes.append(0x81)
            appendBigEndian(UInt64(value), width: 2)
        } else {
            bytes.append(0x83)
            appendBigEndian(UInt64(value), width: 4)
        }
        if value >= uids.count { uids.append(contentsOf: repeatElement(Self.noObject, count: value - uids.count + 1)) }
        uids[value] = ref
        return ref
    }

    // MARK: - Containers

    /// An array of already written objects.
    mutating func array<C: Collection<UInt32>>(_ elements: C) throws(ArchiveWriteError) -> UInt32 {
        let ref = try begin()
        appendMarker(0xA0, count: elements.count)
        for element in elements { appendReference(element) }
        return ref
    }

    /// A dictionary of already written keys and values (same count).
    mutating func dictionary<K: Collection<UInt32>, V: Collection<UInt32>>(keys: K, values: V) throws(ArchiveWriteError)
        -> UInt32
    {
        let ref = try begin()
        appendMarker(0xD0, count: keys.count)
        for key in keys { appendReference(key) }
        for value in values { appendReference(value) }
        return ref
    }

    // MARK: - Finishing

    /// Appends the offset table and trailer (with an ``ArchiveChecksum`` of everything
    /// before it); returns the file's bytes.
    mutating func finish(top: UInt32) -> [UInt8] {
        let tableOffset = bytes.count
        let offsetSize = Self.width(for: UInt64(tableOffset))
        bytes.reserveCapacity(bytes.count + offsets.count * offsetSize + 32)
        for offset in offsets { appendBigEndian(UInt64(offset), width: offsetSize) }
        let checksum = bytes.withUnsafeBytes { ArchiveChecksum.of($0) }
        bytes.append(ArchiveChecksum.marker)
        appendBigEndian(UInt64(checksum), width: 4)
        bytes.append(0)  // sort version
        bytes.append(UInt8(offsetSize))
        bytes.append(UInt8(Self.referenceSize))
        appendBigEndian(UInt64(offsets.count), width: 8)
        appendBigEndian(UInt64(top), width: 8)
        appendBigEndian(UInt64(tableOffset), width: 8)
        return bytes
    }

    private static func width(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    // MARK: - Encoding helpers

    /// A marker whose low nibble holds a count, or 0xF followed by an integer.
    private mutating func appendMarker(_ marker: UInt8, count: Int) {
        if count < 15 {
            bytes.append(marker | UInt8(count))
        } else {
            bytes.append(marker | 0x0F)
            appendInt(Int64(count))
        }
    }

    @inline(__always) private mutating func appendReference(_ ref: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: ref >> 24))
        bytes.append(UInt8(truncatingIfNeeded: ref >> 16))
        bytes.append(UInt8(truncatingIfNeeded: ref >> 8))
        bytes.append(UInt8(truncatingIfNeeded: ref))
    }

    @inline(__always) private mutating func appendBigEndian(_ value: UInt64, width: Int) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }
}

/// Why an archive could not be written (before anything touched the disk).
enum ArchiveWriteError: Error {
    /// More than 2³² − 1 objects.
    case tooManyObjects
}
