import Foundation

/// Typed views of a value, `nil` when it holds another kind (no casting: see ``Caster``).
///
/// ```swift
/// let hours: ModelValue = 3
/// hours.intValue          // 3
/// hours.stringValue       // nil
/// ```
extension ModelValue {
    /// The integer inside, if this is ``int(_:)``.
    public var intValue: Int64? {
        if case .int(let i) = self { return i }
        return nil
    }

    /// The double inside, if this is ``double(_:)``.
    public var doubleValue: Double? {
        if case .double(let d) = self { return d }
        return nil
    }

    /// The string inside, if this is ``string(_:)``.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean inside, if this is ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }
}
