/// A 32-bit checksum of an archive's bytes, kept in the binary plist trailer's unused
/// bytes: byte 0 is the marker `S`, bytes 1–4 the checksum (big-endian). Other readers
/// ignore those bytes; SwiftModel checks them when the marker is there, so damage
/// anywhere in the file (even inside a string, where the format cannot notice it) is
/// reported instead of loaded. Files from other writers have no marker and are read
/// unchecked.
///
/// Not cryptographic: it detects accidental damage, not tampering. Reads eight bytes
/// per step (several GB/s in release builds).
enum ArchiveChecksum {
    static let marker: UInt8 = 0x53

    static func of(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var k = 0
        let words = bytes.count / 8
        while k < words {
            let word = bytes.loadUnaligned(fromByteOffset: k * 8, as: UInt64.self)
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            k += 1
        }
        var tail: UInt64 = 0
        for index in (words * 8)..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 32
        return UInt32(truncatingIfNeeded: hash)
    }
}
