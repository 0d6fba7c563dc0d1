import Foundation

/// Declares a stored column on a model.
///
/// The column's name is the snake_case of the property name unless given; its type comes
/// from the property's type; its default from the initial value (evaluated once per new
/// record) or from `default:` (a literal cast to the column type when the schema is built).
///
/// ```swift
/// final class Todo: Model {
///     @Column var name: String = ""                        // "name", string
///     @Column var longName: String?                        // "long_name", string?
///     @Column(default: "2012-09-15") var dueDate: Date?    // cast at declaration
///     @Column("notes_text") var notes: String = ""         // explicit name
///     @Column(options: .indexed) var priority: Int = 0
///     @Column var createdAt: Date?                         // automatic timestamps
///     @Column var updatedAt: Date?
///     init() {}
/// }
/// ```
///
/// The wrapper itself stores only where it was declared; values live in the record's row,
/// so loading and saving never walk the properties.
@propertyWrapper
public struct Column<T: ColumnValue>: Sendable {
    /// The declaration's source position (`line << 32 | column`), which identifies the
    /// column within its model.
    @usableFromInline package let location: Int

    /// A column whose new records start with `wrappedValue` (evaluated per record).
    @inlinable public init(
        wrappedValue: @autoclosure @escaping @Sendable () -> T, _ name: String? = nil, options: ColumnOptions = [],
        line: UInt = #line, column: UInt = #column
    ) {
        let location = Int(line) << 32 | Int(column)
        self.location = location
        DeclarationCapture.record {
            CapturedColumn(T.self, location: location, name: name, options: options, declaredDefault: nil, factory: {
                wrappedValue().modelValue
            })
        }
    }

    /// A column with a declared default, cast to the column's type when the schema is
    /// built (an uncastable default is a ``SchemaError``). Assigning `nil` to a
    /// non-optional column with a declared default stores the default.
    @inlinable public init(
        _ name: String? = nil, default value: ModelValue, options: ColumnOptions = [],
        line: UInt = #line, column: UInt = #column
    ) {
        let location = Int(line) << 32 | Int(column)
        self.location = location
        DeclarationCapture.record {
            CapturedColumn(T.self, location: location, name: name, options: options, declaredDefault: value, factory: nil)
        }
    }

    @available(*, unavailable, message: "@Column is only available on Model classes")
    public var wrappedValue: T {
        get { preconditionFailure("unreachable: @Column outside a Model") }
        set { preconditionFailure("unreachable: @Column outside a Model") }
    }

    // Always inlined. Left to the optimiser, the storage key path was sometimes kept as an
    // object (an optional column's setter, a `@BelongsTo` getter): each such access in the
    // model's module then paid a key-path lookup and a dynamic exclusivity check on the
    // wrapper (80 to 230 instructions an access in the benchmarks).
    /// Reads and writes go to the record's row.
    @inlinable @inline(__always)
    public static subscript<M: ModelProtocol>(
        _enclosingInstance instance: M,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<M, T>,
        storage storageKeyPath: ReferenceWritableKeyPath<M, Self>
    ) -> T {
        get { instance._read(instance[keyPath: storageKeyPath].location, as: T.self, in: M.self) }
        set { instance._write(newValue.modelValue, location: instance[keyPath: storageKeyPath].location, in: M.self) }
    }
}

extension Column where T: ExpressibleByNilLiteral {
    /// An optional column that starts as `nil`.
    @inlinable public init(_ name: String? = nil, options: ColumnOptions = [], line: UInt = #line, column: UInt = #column) {
        let location = Int(line) << 32 | Int(column)
        self.location = location
        DeclarationCapture.record {
            CapturedColumn(T.self, location: location, name: name, options: options, declaredDefault: nil, factory: nil)
        }
    }
}

/// Type-erased view of a `@Column` found by reflection on the prototype.
package protocol AnyColumnWrapper {
    var location: Int { get }
    static var columnType: ColumnType { get }
    static var isOptional: Bool { get }
    static var elementType: ColumnType? { get }
    static var swiftTypeName: String { get }
    static func accepts(_ value: ModelValue) -> Bool
    static var acceptor: @Sendable (ModelValue) -> Bool { get }
}

extension Column: AnyColumnWrapper {
    package static var columnType: ColumnType { T.columnType }
    package static var isOptional: Bool { T.isOptional }
    package static var elementType: ColumnType? { T.elementType }
    package static var swiftTypeName: String { String(describing: T.self) }
    package static func accepts(_ value: ModelValue) -> Bool { T.accepts(value) }
    package static var acceptor: @Sendable (ModelValue) -> Bool { { T.accepts($0) } }
}
