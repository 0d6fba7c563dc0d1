extension Array where Element == UInt {
    /// Where `key` is in this ascending array, or where it would go: the index of the first
    /// element not less than it (`count` when all are less). A binary search over a few
    /// words, for lookups by type or schema address on every call (``SchemaRegistry``,
    /// ModelSQL's table catalog) where hashing the key cost more than the rest.
    @inline(__always) package func lowerBound(of key: UInt) -> Int {
        withUnsafeBufferPointer { keys in
            var low = 0
            var high = keys.count
            while low < high {
                let middle = low + (high - low) / 2
                if keys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}
