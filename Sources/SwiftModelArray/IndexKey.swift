/// A value as a key of the in-memory indexes: text by its UTF-8 bytes, as SQLite and
/// PostgreSQL compare it, not by Unicode canonical equivalence as `String`'s `==` does —
/// so "café" precomposed and "café" decomposed are two values in a `.unique` column or as
/// ids, on this store as on every other. Other values compare as ``ModelValue`` does.
struct IndexKey: Hashable {
    let value: ModelValue

    init(_ value: ModelValue) { self.value = value }

    static func == (a: IndexKey, b: IndexKey) -> Bool {
        if case .string(let x) = a.value {
            guard case .string(let y) = b.value else { return false }
            return x.utf8.elementsEqual(y.utf8)
        }
        if case .string = b.value { return false }
        return a.value == b.value
    }

    func hash(into hasher: inout Hasher) {
        guard case .string(var text) = value else {
            hasher.combine(value)
            return
        }
        hasher.combine(0xA5 as UInt8)
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
