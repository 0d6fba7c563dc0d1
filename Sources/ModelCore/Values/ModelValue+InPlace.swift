extension ModelValue {
    /// `a.pointee == b.pointee`, read in place. The derived `==` copies both values into a
    /// tuple to switch on them (about 120 instructions with their retains and releases);
    /// the kinds rows mostly hold — null, booleans, integers, doubles, dates, strings — are
    /// compared here without copying, by the same rules (IEEE equality for doubles, so
    /// `0.0 == -0.0` and NaN equals nothing), and any other kind goes to `==`.
    @inline(__always) package static func equal(_ a: UnsafePointer<ModelValue>, _ b: UnsafePointer<ModelValue>) -> Bool {
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

    /// Whether two rows are one storage (copy-on-write has not split them): equal without
    /// looking at a value.
    package static func sharesStorage(_ first: [ModelValue], _ second: [ModelValue]) -> Bool {
        first.count == second.count
            && first.withUnsafeBufferPointer({ $0.baseAddress }) == second.withUnsafeBufferPointer({ $0.baseAddress })
    }

    /// Whether two rows hold equal values, compared in place (see ``equal(_:_:)``):
    /// `Array`'s `==` without a copy of each value.
    package static func rowsEqual(_ first: [ModelValue], _ second: [ModelValue]) -> Bool {
        guard first.count == second.count else { return false }
        return first.withUnsafeBufferPointer { a in
            second.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress, a != b else { return true }
                for k in 0..<first.count where !equal(a + k, b + k) { return false }
                return true
            }
        }
    }
}
