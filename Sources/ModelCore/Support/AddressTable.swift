/// Where each of a fixed set of object addresses (a model type's or a schema's identity)
/// is in its owner's array of values: an immutable index read on every class-level call
/// and every write (``SchemaRegistry``, ModelSQL's table catalog), where hashing the key
/// with SipHash cost more than the rest of a lookup.
///
/// Open addressing over a power-of-two table at most half full: a key's first slot is the
/// top bits of one multiplication (Fibonacci hashing), and a lookup probes forward to the
/// key or to an empty slot (address 0: no object lives there). A lookup among a handful of
/// entries is one or two probes. Not generic, so a lookup from another module needs no
/// specialisation.
package struct AddressTable: Sendable {
    /// The keys by slot; 0 is an empty slot.
    @usableFromInline let keys: [UInt]
    /// The position of each slot's key in the owner's values (-1 in empty slots).
    @usableFromInline let positions: [Int]
    /// `64 - log2(keys.count)`: shifting a hashed key right by this gives its first slot.
    @usableFromInline let shift: UInt

    /// An index of `keys`: key `keys[k]` is at position `k`. A repeated key keeps its last
    /// position; the key 0 is left out.
    package init(_ keys: [UInt]) {
        var bits = 2
        while 1 << bits < 2 * keys.count { bits += 1 }
        var table = [UInt](repeating: 0, count: 1 << bits)
        var positions = [Int](repeating: -1, count: 1 << bits)
        let shift = UInt(UInt.bitWidth - bits)
        for (position, key) in keys.enumerated() where key != 0 {
            var slot = Self.firstSlot(of: key, shift: shift)
            while table[slot] != 0 && table[slot] != key { slot = (slot + 1) & (table.count - 1) }
            table[slot] = key
            positions[slot] = position
        }
        (self.keys, self.positions, self.shift) = (table, positions, shift)
    }

    /// The position of `key`, if it is in the index.
    @inlinable @inline(__always) package func position(of key: UInt) -> Int? {
        keys.withUnsafeBufferPointer { keys in
            let mask = keys.count - 1
            var slot = Self.firstSlot(of: key, shift: shift)
            while true {
                let found = keys[slot]
                if found == 0 { return nil }
                if found == key { return positions.withUnsafeBufferPointer { $0[slot] } }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Where `key`'s probe starts.
    @inlinable @inline(__always) static func firstSlot(of key: UInt, shift: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }
}
