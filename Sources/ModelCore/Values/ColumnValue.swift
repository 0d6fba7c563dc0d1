import Foundation

/// A Swift type that converts to and from ``ModelValue`` without loss.
///
/// Used for array elements and dictionary values; ``ColumnValue`` adds a column type.
public protocol ModelValueConvertible: Sendable {
    /// The stored form of this value.
    var modelValue: ModelValue { get }
    /// Reads a value that is already of the stored form (after casting).
    ///
    /// Returns `nil` when `modelValue` is not of this type's stored kind.
    init?(modelValue: ModelValue)
    /// The column type of the stored form, or `nil` for ``ModelValue`` itself (any kind).
    static var storedType: ColumnType? { get }
}

/// A Swift type that can be the type of a `@Column` property.
///
/// Conforming types: `String`, `Bool`, `Int`, `Int64`, `Int32`, `Double`, `Float`, `Date`,
/// `Data`, `UUID`, arrays and `[String: V]` dictionaries of convertible values, and
/// optionals of each.
public protocol ColumnValue: ModelValueConvertible {
    /// The declared column type (for optionals, the wrapped type's).
    static var columnType: ColumnType { get }
    /// Whether the column accepts nil.
    static var isOptional: Bool { get }
    /// For arrays and dictionaries: the element's column type, if typed.
    static var elementType: ColumnType? { get }
    /// Whether `value` reads back as this type: `init(modelValue:)` would not return nil.
    ///
    /// A cast value is checked with it before it is stored (an `Int32` column refuses
    /// `2^40`). Asked through this requirement, each type answers in code specialised for
    /// it; the same test written in code generic over the type makes a `Self?` there, and
    /// the runtime looks up `Optional<Self>`'s metadata on every call (about 500
    /// instructions). The default tests `init(modelValue:)`; `Optional` answers NULL itself
    /// and asks `Wrapped` for the rest.
    static func accepts(_ value: ModelValue) -> Bool
}

extension ColumnValue {
    public static var isOptional: Bool { false }
    public static var elementType: ColumnType? { nil }
    public static var storedType: ColumnType? { columnType }
    /// `init(modelValue:)` succeeds.
    @inlinable public static func accepts(_ value: ModelValue) -> Bool { Self(modelValue: value) != nil }
}

extension String: ColumnValue {
    public static var columnType: ColumnType { .string }
    @inlinable public var modelValue: ModelValue { .string(self) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .string(let v) = modelValue else { return nil }
        self = v
    }
}

extension Bool: ColumnValue {
    public static var columnType: ColumnType { .bool }
    @inlinable public var modelValue: ModelValue { .bool(self) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .bool(let v) = modelValue else { return nil }
        self = v
    }
}

extension Int64: ColumnValue {
    public static var columnType: ColumnType { .int }
    @inlinable public var modelValue: ModelValue { .int(self) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .int(let v) = modelValue else { return nil }
        self = v
    }
}

extension Int: ColumnValue {
    public static var columnType: ColumnType { .int }
    @inlinable public var modelValue: ModelValue { .int(Int64(self)) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .int(let v) = modelValue, let i = Int(exactly: v) else { return nil }
        self = i
    }
}

extension Int32: ColumnValue {
    public static var columnType: ColumnType { .int }
    @inlinable public var modelValue: ModelValue { .int(Int64(self)) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .int(let v) = modelValue, let i = Int32(exactly: v) else { return nil }
        self = i
    }
}

extension Double: ColumnValue {
    public static var columnType: ColumnType { .double }
    /// The value, with negative zero as zero (`Docs/Casting.md`, "Limits": SQLite keeps a
    /// `REAL` column's `-0.0` as `0`, so no adapter stores the sign).
    @inlinable public var modelValue: ModelValue { .double(self + 0) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .double(let v) = modelValue else { return nil }
        self = v
    }
}

extension Float: ColumnValue {
    public static var columnType: ColumnType { .double }
    /// The value as a `Double`, with negative zero as zero (see `Double.modelValue`).
    @inlinable public var modelValue: ModelValue { .double(Double(self) + 0) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .double(let v) = modelValue else { return nil }
        self = Float(v)
    }
}

extension Date: ColumnValue {
    public static var columnType: ColumnType { .date }
    @inlinable public var modelValue: ModelValue { .date(self) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .date(let v) = modelValue else { return nil }
        self = v
    }
}

extension Data: ColumnValue {
    public static var columnType: ColumnType { .data }
    @inlinable public var modelValue: ModelValue { .data(self) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .data(let v) = modelValue else { return nil }
        self = v
    }
}

extension UUID: ColumnValue {
    public static var columnType: ColumnType { .uuid }
    @inlinable public var modelValue: ModelValue { .uuid(self) }
    @inlinable public init?(modelValue: ModelValue) {
        guard case .uuid(let v) = modelValue else { return nil }
        self = v
    }
}

extension ModelValue: ModelValueConvertible {
    public static var storedType: ColumnType? { nil }
    @inlinable public var modelValue: ModelValue { self }
    @inlinable public init?(modelValue: ModelValue) { self = modelValue }
}

extension Array: ModelValueConvertible, ColumnValue where Element: ModelValueConvertible {
    public static var columnType: ColumnType { .array }
    public static var elementType: ColumnType? { Element.storedType }
    public var modelValue: ModelValue { .array(map(\.modelValue)) }
    public init?(modelValue: ModelValue) {
        guard case .array(let values) = modelValue else { return nil }
        var result: [Element] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let element = Element(modelValue: value) else { return nil }
            result.append(element)
        }
        self = result
    }
}

extension Dictionary: ModelValueConvertible, ColumnValue where Key == String, Value: ModelValueConvertible {
    public static var columnType: ColumnType { .dictionary }
    public static var elementType: ColumnType? { Value.storedType }
    public var modelValue: ModelValue { .dictionary(mapValues(\.modelValue)) }
    public init?(modelValue: ModelValue) {
        guard case .dictionary(let values) = modelValue else { return nil }
        var result: [String: Value] = [:]
        result.reserveCapacity(values.count)
        for (key, value) in values {
            guard let element = Value(modelValue: value) else { return nil }
            result[key] = element
        }
        self = result
    }
}

extension Optional: ModelValueConvertible, ColumnValue where Wrapped: ColumnValue {
    public static var columnType: ColumnType { Wrapped.columnType }
    public static var isOptional: Bool { true }
    public static var elementType: ColumnType? { Wrapped.elementType }
    @inlinable public var modelValue: ModelValue {
        switch self {
        case .none: .null
        case .some(let wrapped): wrapped.modelValue
        }
    }
    @inlinable public init?(modelValue: ModelValue) {
        if case .null = modelValue { self = .none; return }
        guard let wrapped = Wrapped(modelValue: modelValue) else { return nil }
        self = .some(wrapped)
    }
    /// NULL, or a value `Wrapped` accepts (asked of `Wrapped`, so no `Wrapped??` is made).
    @inlinable public static func accepts(_ value: ModelValue) -> Bool {
        if case .null = value { return true }
        return Wrapped.accepts(value)
    }
}

// MARK: - Conversions used by the dynamic API

extension ModelValue {
    /// The stored form of any convertible Swift value.
    ///
    /// ```swift
    /// try todo.set("tags", to: ModelValue(Set(["a", "b"])))
    /// try todo.set("steps", to: ModelValue(1...10))
    /// ```
    public init(_ value: some ModelValueConvertible) { self = value.modelValue }

    /// An array of the range's integers.
    public init<I: BinaryInteger>(_ range: ClosedRange<I>) where I.Stride: SignedInteger {
        self = .array(range.map { .int(Int64($0)) })
    }

    /// An array of the range's integers.
    public init<I: BinaryInteger>(_ range: Range<I>) where I.Stride: SignedInteger {
        self = .array(range.map { .int(Int64($0)) })
    }

    /// An array of the set's elements, in a stable (sorted) order.
    public init<E: ModelValueConvertible & Hashable>(_ set: Set<E>) {
        self = .array(set.map(\.modelValue).sorted { $0.sortCompare(to: $1) == .orderedAscending })
    }
}
