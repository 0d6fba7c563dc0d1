import ArrayAdapter
import Foundation
import Testing

/// A value type of the caller's own: an integer column whose property takes only 0...100.
/// It leaves ``ColumnValue/accepts(_:)`` to the protocol's default.
struct Percent: ColumnValue, Equatable {
    static let zero = Percent(checked: 0)
    let value: Int
    private init(checked value: Int) { self.value = value }
    init?(_ value: Int) {
        guard (0...100).contains(value) else { return nil }
        self.value = value
    }
    static var columnType: ColumnType { .int }
    var modelValue: ModelValue { .int(Int64(value)) }
    init?(modelValue: ModelValue) {
        guard case .int(let stored) = modelValue, let percent = Percent(Int(stored)) else { return nil }
        self = percent
    }
}

final class Gauge: Model {
    @Column var level: Percent = .zero
    @Column var target: Percent?
    @Column var narrow: Int32? = nil
    init() {}
}

/// ``ColumnValue/accepts(_:)``: what a column refuses before it stores a cast value. Each
/// type answers in code specialised for it (`Optional` in its own implementation); the
/// answer is always `init(modelValue:) != nil`.
@Suite struct ColumnAcceptanceTests {
    static let samples: [ModelValue] = [
        .null, .bool(true), .int(0), .int(-1), .int(Int64(Int32.max)), .int(Int64(Int32.max) + 1), .int(.min), .int(.max),
        .double(0), .double(2.5), .double(.nan), .double(.infinity), .string(""), .string("a"),
        .date(Date(timeIntervalSince1970: 0)), .data(Data([1])), .uuid(UUID()), .array([]), .array([.string("a")]),
        .array([.int(1)]), .dictionary([:]), .dictionary(["k": .int(1)]), .dictionary(["k": .string("v")]),
    ]

    /// `accepts` and `init(modelValue:)` agree for `T` on every sample.
    static func disagreements<T: ColumnValue>(_ type: T.Type) -> [String] {
        samples.compactMap { value in
            T.accepts(value) == (T(modelValue: value) != nil) ? nil : "\(T.self) accepts \(value): \(T.accepts(value))"
        }
    }

    @Test func standardTypesAgreeWithTheirInitialisers() {
        var problems: [String] = []
        problems += Self.disagreements(String.self) + Self.disagreements(String?.self)
        problems += Self.disagreements(Bool.self) + Self.disagreements(Bool?.self)
        problems += Self.disagreements(Int.self) + Self.disagreements(Int?.self)
        problems += Self.disagreements(Int64.self) + Self.disagreements(Int64?.self)
        problems += Self.disagreements(Int32.self) + Self.disagreements(Int32?.self)
        problems += Self.disagreements(Double.self) + Self.disagreements(Double?.self)
        problems += Self.disagreements(Float.self) + Self.disagreements(Float?.self)
        problems += Self.disagreements(Date.self) + Self.disagreements(Date?.self)
        problems += Self.disagreements(Data.self) + Self.disagreements(Data?.self)
        problems += Self.disagreements(UUID.self) + Self.disagreements(UUID?.self)
        problems += Self.disagreements([String].self) + Self.disagreements([Int]?.self)
        problems += Self.disagreements([String: Int].self) + Self.disagreements([String: ModelValue]?.self)
        problems += Self.disagreements(Percent.self) + Self.disagreements(Percent?.self)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anOptionalAcceptsNullAndWhatItsWrappedTypeAccepts() {
        #expect(Optional<Int32>.accepts(.null) && !Int32.accepts(.null))
        #expect(Optional<Int32>.accepts(.int(7)) && !Optional<Int32>.accepts(.int(Int64(Int32.max) + 1)))
        #expect(Optional<Percent>.accepts(.null) && Optional<Percent>.accepts(.int(100)) && !Optional<Percent>.accepts(.int(101)))
        #expect(!Optional<Percent>.accepts(.string("50")))
    }

    @Test func aColumnOfTheCallersTypeRefusesWhatItsInitialiserRefuses() throws {
        let gauge = Gauge()
        try gauge.set("level", to: 40)
        #expect(gauge.level == Percent(40))
        let refused = #expect(throws: CastError.self) { try gauge.set("level", to: 150) }
        #expect(refused?.column == "level")
        #expect(gauge.level == Percent(40))

        try gauge.set("target", to: .null)
        #expect(gauge.target == nil)
        try gauge.set("target", to: "99")  // cast to an integer, then accepted
        #expect(gauge.target == Percent(99))
        #expect(throws: CastError.self) { try gauge.set("target", to: -1) }
        #expect(gauge.target == Percent(99))

        try gauge.set("narrow", to: .null)
        #expect(throws: CastError.self) { try gauge.set("narrow", to: .int(Int64(Int32.min) - 1)) }
        #expect(gauge.narrow == nil)
    }

    @Test func aStoredRowTheCallersTypeRefusesIsAnErrorNamingTheColumn() throws {
        let store = ArrayAdapter()
        let gauge = Gauge()
        try gauge.set("level", to: 10)
        try gauge.save(to: store)
        // A row written by another tool: 250 in the percent column.
        let id = try #require(gauge.id)
        _ = try store.update(StoreQuery(schema: Gauge.schema), set: [1: .int(250)])
        let error = #expect(throws: InvalidStoredValue.self) { try Gauge.find(id, in: store) }
        #expect(error?.column == "level")
    }
}
