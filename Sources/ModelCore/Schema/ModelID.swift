import Foundation

/// Who makes a new record's id.
public enum IDGeneration: Sendable, Hashable {
    /// The adapter assigns the next integer on first insert (`Int64`, `Int`).
    case autoIncrement
    /// The model layer generates a random UUID on first insert.
    case uuid
    /// The caller must set the id before the first save (`String` ids).
    case provided
}

/// A type usable as a model's id: `Int64` (the default), `Int`, `UUID` or `String`.
///
/// ```swift
/// final class Device: Model {
///     typealias IDValue = UUID
///     @Column var name: String = ""
///     init() {}
/// }
/// ```
public protocol ModelID: ColumnValue, Hashable {
    /// How new ids are made.
    static var generation: IDGeneration { get }
}

extension Int64: ModelID { public static var generation: IDGeneration { .autoIncrement } }
extension Int: ModelID { public static var generation: IDGeneration { .autoIncrement } }
extension UUID: ModelID { public static var generation: IDGeneration { .uuid } }
extension String: ModelID { public static var generation: IDGeneration { .provided } }
