import Synchronization

/// What one `@Column` declaration said, recorded while the schema's prototype instance is
/// initialised (the wrappers' initialisers run in declaration order).
@usableFromInline package struct CapturedColumn {
    package let location: Int
    package let name: String?
    package let options: ColumnOptions
    package let declaredDefault: ModelValue?
    package let factory: (@Sendable () -> ModelValue)?
    package let columnType: ColumnType
    package let isOptional: Bool
    package let elementType: ColumnType?
    package let accepts: @Sendable (ModelValue) -> Bool

    @usableFromInline package init<T: ColumnValue>(
        _ type: T.Type, location: Int, name: String?, options: ColumnOptions, declaredDefault: ModelValue?,
        factory: (@Sendable () -> ModelValue)?
    ) {
        self.location = location
        self.name = name
        self.options = options
        self.declaredDefault = declaredDefault
        self.factory = factory
        self.columnType = T.columnType
        self.isOptional = T.isOptional
        self.elementType = T.elementType
        self.accepts = { T.accepts($0) }
    }
}

/// Records column declarations, but only on the thread that is building a schema.
///
/// Instances made at any other time pay one relaxed atomic load per column.
@usableFromInline package enum DeclarationCapture {
    /// The number of schema builds in progress in the process (fast-path gate).
    @usableFromInline static let active = Atomic<Int>(0)
    private static let frames = ThreadLocal<Frames>()

    private final class Frames { var stack: [[CapturedColumn]] = [] }

    @inlinable package static func record(_ make: () -> CapturedColumn) {
        if active.load(ordering: .relaxed) > 0 { recordSlow(make()) }
    }

    @usableFromInline package static func recordSlow(_ column: CapturedColumn) {
        guard let frames = frames.value, !frames.stack.isEmpty else { return }
        frames.stack[frames.stack.count - 1].append(column)
    }

    /// Runs `body` (which makes the prototype) and returns what it declared.
    package static func capture<R>(_ body: () -> R) -> (R, [CapturedColumn]) {
        let frames = self.frames.value ?? Frames()
        self.frames.value = frames
        frames.stack.append([])
        active.add(1, ordering: .sequentiallyConsistent)
        defer { active.subtract(1, ordering: .sequentiallyConsistent) }
        let result = body()
        let captured = frames.stack.removeLast()
        return (result, captured)
    }

    /// The columns captured so far by the innermost build on this thread (used while a
    /// prototype's own `init` body reads its properties).
    package static var inProgress: [CapturedColumn]? { frames.value?.stack.last }
}
