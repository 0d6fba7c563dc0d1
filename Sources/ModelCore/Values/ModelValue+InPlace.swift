extension ModelValue {
    /// `a.pointee == b.pointee`, read in place. The derived `==` copies both values into a
    /// tuple to switch on them (about 120 instructions with their retains and releases);
    /// the kinds rows mostly hold — null, booleans, integers, doubles, dates, strings — are
    /// compared here without copying, by the same rules (IEEE equality for doubles, so
    /// `0.0 == -0.0` and NaN equals nothing), and any other kind goes to `==`.
    ///
    /// Two values whose bytes are the same are one case with one payload (the same string
    /// or array storage), so that is checked first, before reading a case: they are equal
    /// unless the payload is a NaN (a double, or a date's interval).
    @inline(__always) package static func equal(_ a: UnsafePointer<ModelValue>, _ b: UnsafePointer<ModelValue>) -> Bool {
        if sameBytes(a, b) {
            switch a.pointee {
            case .double(let x): return x == x
            case .date(let x): return x == x
            default: return true
            }
        }
        switch a.pointee {
        case .null: if case .null = b.pointee { return true } else { return false }
        case .bool(let x): if case .bool(let y) = b.pointee { return x == y } else { return false }
        case .int(let x): if case .int(let y) = b.pointee { return x == y } else { return false }
        case .double(let x): if case .double(let y) = b.pointee { return x == y } else { return false }
        case .date(let x): if case .date(let y) = b.pointee { return x == y } else { return false }
        case .string(let x): if case .string(let y) = b.pointee { return x == y } else { return false }
        case .data, .uuid, .array, .dictionary: return a.pointee == b.pointee
        }
    }

    /// Whether the two values' bytes are equal. Bytes a case leaves unused may differ between
    /// equal values, so false only means "compare by case".
    @inline(__always) private static func sameBytes(_ a: UnsafePointer<ModelValue>, _ b: UnsafePointer<ModelValue>) -> Bool {
        let x = UnsafeRawPointer(a)
        let y = UnsafeRawPointer(b)
        var offset = 0
        while offset + 8 <= MemoryLayout<ModelValue>.size {
            if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        while offset < MemoryLayout<ModelValue>.size {
            if x.load(fromByteOffset: offset, as: UInt8.self) != y.load(fromByteOffset: offset, as: UInt8.self) { return false }
            offset += 1
        }
        return true
    }

    /// Whether `row` has a value at `slot` equal to `value`, compared in place (no copy of
    /// the row's value, no optional).
    @inline(__always) package static func row(_ row: [ModelValue], at slot: Int, equals value: ModelValue) -> Bool {
        guard slot >= 0, slot < row.count else { return false }
        return withUnsafePointer(to: value) { value in
            row.withUnsafeBufferPointer { ModelValue.equal($0.baseAddress.unsafelyUnwrapped + slot, value) }
        }
    }

    /// Whether two rows are one storage (copy-on-write has not split them): equal without
    /// looking at a value.
    package static func sharesStorage(_ first: [ModelValue], _ second: [ModelValue]) -> Bool {
        first.count == second.count
            && first.withUnsafeBufferPointer({ $0.baseAddress }) == second.withUnsafeBufferPointer({ $0.baseAddress })
    }

    /// Whether two rows hold equal values, compared in place (see ``equal(_:_:)``):
    /// `Array`'s `==` without a copy of each value (``differingSlots(_:_:limit:)`` with no
    /// slot allowed to differ).
    package static func rowsEqual(_ first: [ModelValue], _ second: [ModelValue]) -> Bool {
        differingSlots(first, second, limit: 0) != nil
    }

    /// How many slots of two equally long rows differ, and the first of them (or -1),
    /// compared in place; nil once more than `limit` do.
    package static func differingSlots(_ first: [ModelValue], _ second: [ModelValue], limit: Int) -> (count: Int, first: Int)? {
        guard first.count == second.count else { return nil }
        return first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b -> (count: Int, first: Int)? in
                guard let a = a.baseAddress, let b = b.baseAddress, a != b else { return (0, -1) }
                var count = 0
                var firstSlot = -1
                for k in 0..<first.count where !equal(a + k, b + k) {
                    if count == 0 { firstSlot = k }
                    count += 1
                    if count > limit { return nil }
                }
                return (count, firstSlot)
            }
        }
    }

    /// The slots where `first` differs from the equally long `second`, with `first`'s
    /// values; `count` (from ``differingSlots(_:_:limit:)``) sizes the result once.
    package static func differences(_ first: [ModelValue], _ second: [ModelValue], count: Int) -> [(Int, ModelValue)] {
        var result: [(Int, ModelValue)] = []
        result.reserveCapacity(count)
        first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress, first.count == second.count else { return }
                for k in 0..<first.count where !equal(a + k, b + k) { result.append((k, a[k])) }
            }
        }
        return result
    }
}
