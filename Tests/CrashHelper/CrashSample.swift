import ModelCore

/// What the helper saves; the crash test reads it back through the same type.
final class CrashSample: Model {
    @Column var generation: Int = 0
    @Column var position: Int = 0
    @Column var padding: String = ""
    init() {}

    static func expectedCount(_ generation: Int) -> Int { 500 + (generation % 7) * 700 }
}
