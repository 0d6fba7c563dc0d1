import Foundation

/// Reads a binary property list (`bplist00`) in place, checking every offset, count and
/// reference against the buffer: a truncated or damaged file is an error, never a crash.
///
/// Only valid while the buffer it was made from is alive (use it inside
/// `withUnsafeBytes`).
struct BinaryPlistReader {
    /// One object, decoded shallowly: containers keep their position and are read on
    /// demand.
    enum Object {
        case null
        case bool(Bool)
        case int(Int64)
        case real(Double)
        case date(Double)
        case data(Range<Int>)
        case asciiString(Range<Int>)
        case utf16String(Range<Int>)
        case uid(Int)
        case array(Container)
        case dictionary(Container)
    }

    /// An array's references, or a dictionary's keys followed by its values.
    struct Container {
        /// Where the references start.
        let start: Int
        /// Elements (arrays) or entries (dictionaries).
        let count: Int
    }

    private let buffer: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let referenceSize: Int
    private let offsetTable: Int
    /// How many objects the file declares.
    let objectCount: Int
    /// The top object's reference.
    let top: Int

    /// Checks the header and trailer.
    init(_ buffer: UnsafeRawBufferPointer) throws(PlistError) {
        self.buffer = buffer
        guard buffer.count >= 8 + 32 + 1 else {
            throw buffer.count >= 6 && Self.hasMagic(buffer) ? .truncated("the file is shorter than a property list") : .notPlist
        }
        guard Self.hasMagic(buffer), buffer[6] == 0x30 else { throw .notPlist }
        let trailer = buffer.count - 32
        offsetSize = Int(buffer[trailer + 6])
        referenceSize = Int(buffer[trailer + 7])
        func word(_ at: Int) -> UInt64 {
            var value: UInt64 = 0
            for k in 0..<8 { value = value << 8 | UInt64(buffer[at + k]) }
            return value
        }
        let count = word(trailer + 8), topRef = word(trailer + 16), tableOffset = word(trailer + 24)
        guard [1, 2, 4, 8].contains(offsetSize), [1, 2, 4, 8].contains(referenceSize) else {
            throw .truncated("the trailer is damaged (offset size \(offsetSize), reference size \(referenceSize))")
        }
        guard count >= 1, topRef < count, tableOffset >= 9, tableOffset < UInt64(trailer),
            count <= (UInt64(trailer) - tableOffset) / UInt64(offsetSize)
        else {
            throw .truncated("the trailer does not match the file (\(count) objects, offset table at \(tableOffset))")
        }
        if buffer[trailer] == ArchiveChecksum.marker {
            let stored = UInt32(truncatingIfNeeded: word(trailer - 3) & 0xFFFF_FFFF)
            let actual = ArchiveChecksum.of(UnsafeRawBufferPointer(rebasing: buffer[..<trailer]))
            guard stored == actual else { throw .malformed("checksum mismatch: the file was damaged after it was written") }
        }
        objectCount = Int(count)
        top = Int(topRef)
        offsetTable = Int(tableOffset)
    }

    private static func hasMagic(_ buffer: UnsafeRawBufferPointer) -> Bool {
        buffer.count >= 6 && Array(buffer[0..<6]) == Array("bplist".utf8)
    }

    // MARK: - Objects

    /// The object with this reference.
    func object(_ ref: Int) throws(PlistError) -> Object {
        guard ref >= 0, ref < objectCount else { throw .malformed("reference \(ref) is out of range") }
        let at = Int(truncatingIfNeeded: uint(at: offsetTable + ref * offsetSize, width: offsetSize))
        guard at >= 8, at < offsetTable else { throw .malformed("object \(ref) has offset \(at) outside the object area") }
        let marker = buffer[at]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw .malformed("unknown marker 0x\(String(marker, radix: 16)) at \(at)")
            }
        case 0x1:
            return .int(try integer(at: at))
        case 0x2:
            try need(at + 1, low == 2 ? 4 : 8)
            if low == 2 { return .real(Double(Float(bitPattern: UInt32(uint(at: at + 1, width: 4))))) }
            guard low == 3 else { throw .malformed("a real of 2^\(low) bytes at \(at)") }
            return .real(Double(bitPattern: uint(at: at + 1, width: 8)))
        case 0x3:
            try need(at + 1, 8)
            return .date(Double(bitPattern: uint(at: at + 1, width: 8)))
        case 0x4:
            let (start, length) = try sized(at, low, unit: 1)
            return .data(start..<start + length)
        case 0x5:
            let (start, length) = try sized(at, low, unit: 1)
            return .asciiString(start..<start + length)
        case 0x6:
            let (start, length) = try sized(at, low, unit: 2)
            return .utf16String(start..<start + length * 2)
        case 0x8:
            try need(at + 1, low + 1)
            guard low < 8 else { throw .malformed("a UID of \(low + 1) bytes at \(at)") }
            let value = uint(at: at + 1, width: low + 1)
            guard value <= UInt64(Int32.max) else { throw .malformed("UID \(value) is out of range") }
            return .uid(Int(value))
        case 0xA:
            let (start, count) = try sized(at, low, unit: referenceSize)
            return .array(Container(start: start, count: count))
        case 0xD:
            let (start, count) = try sized(at, low, unit: referenceSize * 2)
            return .dictionary(Container(start: start, count: count))
        default:
            throw .malformed("unsupported marker 0x\(String(marker, radix: 16)) at \(at)")
        }
    }

    /// The `k`th reference of a container (for dictionaries, keys are 0..<count and values
    /// count..<2·count).
    @inline(__always) func reference(_ container: Container, _ k: Int) -> Int {
        Int(truncatingIfNeeded: uint(at: container.start + k * referenceSize, width: referenceSize))
    }

    /// The string object `ref` holds.
    func string(_ ref: Int) throws(PlistError) -> String? {
        switch try object(ref) {
        case .asciiString(let range): return string(ascii: range)
        case .utf16String(let range): return string(utf16: range)
        default: return nil
        }
    }

    func string(ascii range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self)
    }

    func string(utf16 range: Range<Int>) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(range.count / 2)
        var k = range.lowerBound
        while k < range.upperBound {
            units.append(UInt16(buffer[k]) << 8 | UInt16(buffer[k + 1]))
            k += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    func data(_ range: Range<Int>) -> Data { Data(buffer[range]) }

    // MARK: - Helpers

    private func need(_ at: Int, _ length: Int) throws(PlistError) {
        guard length >= 0, at <= offsetTable, length <= offsetTable - at else {
            throw .truncated("an object at \(at) runs past the object area")
        }
    }

    /// An integer object (marker 0x1n) at `at`.
    private func integer(at: Int) throws(PlistError) -> Int64 {
        let low = Int(buffer[at] & 0x0F)
        switch low {
        case 0, 1, 2:
            try need(at + 1, 1 << low)
            return Int64(uint(at: at + 1, width: 1 << low))
        case 3:
            try need(at + 1, 8)
            return Int64(bitPattern: uint(at: at + 1, width: 8))
        case 4:
            try need(at + 1, 16)
            guard uint(at: at + 1, width: 8) == 0 else { throw .malformed("a 128-bit integer out of Int64's range") }
            let value = uint(at: at + 9, width: 8)
            guard value <= UInt64(Int64.max) else { throw .malformed("integer \(value) is out of Int64's range") }
            return Int64(value)
        default:
            throw .malformed("an integer of 2^\(low) bytes at \(at)")
        }
    }

    /// The start and element count of a sized object (its count is in the marker's low
    /// nibble, or in an integer that follows when the nibble is 0xF).
    private func sized(_ at: Int, _ low: Int, unit: Int) throws(PlistError) -> (start: Int, count: Int) {
        var start = at + 1
        var count = low
        if low == 0x0F {
            try need(start, 1)
            guard buffer[start] >> 4 == 0x1 else { throw .malformed("a length that is not an integer at \(start)") }
            let value = try integer(at: start)
            guard value >= 0, value <= Int64(Int32.max) else { throw .malformed("length \(value) at \(at)") }
            count = Int(value)
            start += 1 + (1 << Int(buffer[start] & 0x0F))
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else { throw .malformed("length \(count) at \(at)") }
        try need(start, bytes)
        return (start, count)
    }

    @inline(__always) private func uint(at: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<width { value = value << 8 | UInt64(buffer[at + k]) }
        return value
    }
}

/// What is wrong with a property list or the keyed archive in it (reported as an
/// ``ArchiveError`` with the file).
enum PlistError: Error {
    /// Not a binary property list at all.
    case notPlist
    /// A property list, but not an `NSKeyedArchiver` archive of SwiftModel tables.
    case notKeyedArchive(String)
    /// The file ends early.
    case truncated(String)
    /// Objects are damaged.
    case malformed(String)
    /// A layout or class SwiftModel does not read.
    case unsupported(String)
}
