import AdapterConformance
import Foundation
import RESTAdapter
import Testing

/// A model with a column of each kind a list query filters on.
final class QueryItem: Model {
    @Column var name: String = ""
    @Column var age: Int = 0
    @Column var score: Double = 0
    @Column var active: Bool = false
    @Column var born: Date?
    @Column var note: String?
    init() {}
}

/// Query decoding (the server half of the two shipped formats): whatever an encoder
/// writes decodes to the same query, and anything else is refused naming the parameter.
@Suite struct RESTQueryDecodingTests {
    static var codec: RowJSONCodec {
        get throws { try RowJSONCodec.codec(for: QueryItem.schema) }
    }

    /// A small deterministic generator with the picks these tests make.
    struct Generator {
        var seeded: SeededRandom
        init(state: UInt64) { seeded = SeededRandom(seed: state) }
        mutating func next() -> UInt64 { seeded.next() }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func text() -> String {
            String((0..<(1 + below(6))).map { _ in pick(Array("ab c.*%_\\$^()[]|+?-,=&é")) })
        }
    }

    static let columns = (name: 1, age: 2, score: 3, active: 4, born: 5, note: 6)

    /// A value for one of the comparable columns.
    static func value(_ column: Int, _ g: inout Generator) -> ModelValue {
        switch column {
        case columns.name, columns.note: .string(g.text())
        case columns.age: .int(Int64(g.below(200)) - 50)
        case columns.score: .double(Double(g.below(1_000)) / 8)
        case columns.active: .bool(g.below(2) == 0)
        default: .date(Date(timeIntervalSince1970: TimeInterval(1_600_000_000 + g.below(100_000_000))))
        }
    }

    /// Conditions the plain format expresses: an `and` of comparisons and lists, one per field.
    static func plainPredicate(_ g: inout Generator) -> QueryPredicate? {
        var fields = [columns.name, columns.age, columns.score, columns.active, columns.born, columns.note]
        var parts: [QueryPredicate] = []
        for _ in 0..<g.below(4) {
            guard !fields.isEmpty else { break }
            let column = fields.remove(at: g.below(fields.count))
            if g.below(4) == 0 {
                parts.append(.isIn(column: column, (0..<(2 + g.below(3))).map { _ in value(column, &g) }))
            } else {
                let op: ComparisonOperator = column == columns.active ? g.pick([.equal, .notEqual]) : g.pick(ComparisonOperator.allCases)
                parts.append(.compare(column: column, op, value(column, &g)))
            }
        }
        return parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
    }

    /// Any predicate the Parse format expresses, nested up to `depth`.
    static func parsePredicate(_ g: inout Generator, depth: Int) -> QueryPredicate {
        let column = g.pick([columns.name, columns.age, columns.score, columns.active, columns.born, columns.note])
        switch depth > 0 ? g.below(9) : 3 + g.below(6) {
        case 0: return .and((0..<(1 + g.below(3))).map { _ in parsePredicate(&g, depth: depth - 1) })
        case 1: return .or((0..<(1 + g.below(3))).map { _ in parsePredicate(&g, depth: depth - 1) })
        case 2: return .between(column: column, value(column, &g), value(column, &g))
        case 3: return .compare(column: column, g.pick(ComparisonOperator.allCases), value(column, &g))
        case 4: return .isIn(column: column, (0..<(1 + g.below(3))).map { _ in value(column, &g) })
        case 5: return .notIn(column: column, (0..<(1 + g.below(3))).map { _ in value(column, &g) })
        case 6: return g.below(2) == 0 ? .isNull(column: column) : .isNotNull(column: column)
        default:
            let op = g.pick(TextOperator.allCases)
            var text = g.text()
            if op == .like { text = text.replacingOccurrences(of: "\\", with: "") }
            return .text(column: g.pick([columns.name, columns.note]), op, text, caseInsensitive: g.below(2) == 0)
        }
    }

    /// `predicate` with `and`s flattened and ordered, `between` as its two comparisons.
    static func normalized(_ predicate: QueryPredicate?) -> QueryPredicate? {
        guard let predicate else { return nil }
        func conjuncts(_ p: QueryPredicate) -> [QueryPredicate] {
            switch p {
            case .and(let parts): return parts.flatMap(conjuncts)
            case .between(let c, let low, let high): return [.compare(column: c, .greaterOrEqual, low), .compare(column: c, .lessOrEqual, high)]
            case .or(let parts): return [.or(parts.map { normalized($0) ?? .and([]) })]
            default: return [p]
            }
        }
        let parts = conjuncts(predicate).sorted { "\($0)" < "\($1)" }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    @Test func whatThePlainEncoderWritesDecodesToTheSameQuery() throws {
        var g = Generator(state: 7)
        for paging in [PlainQueryEncoder.Paging.limitOffset(limit: "limit", offset: "offset"), .pages(page: "page", perPage: "per_page")] {
            let format = PlainQueryEncoder(sortParameter: "sort", paging: paging)
            for _ in 0..<400 {
                let sort = (0..<g.below(3)).map { _ in SortKey(column: 1 + g.below(6), ascending: g.below(2) == 0) }
                let limit = g.below(3) == 0 ? nil : 1 + g.below(50)
                let offset = limit.map { $0 * g.below(4) } ?? 0
                let query = RESTListQuery(predicate: Self.plainPredicate(&g), sort: sort, limit: limit, offset: offset, codec: try Self.codec)
                let items = try format.encode(query)
                let decoded = try format.decode(items, codec: try Self.codec, limits: RESTQueryLimits())
                #expect(Self.normalized(decoded.predicate) == Self.normalized(query.predicate), "\(items)")
                #expect(decoded.sort == query.sort && decoded.limit == query.limit && decoded.offset == query.offset)
            }
        }
    }

    @Test func whatTheParseEncoderWritesDecodesToTheSameQuery() throws {
        var g = Generator(state: 11)
        var limits = RESTQueryLimits()
        limits.conditions = 1_000
        for _ in 0..<600 {
            let query = RESTListQuery(
                predicate: Self.parsePredicate(&g, depth: 3), sort: [SortKey(column: 1 + g.below(6), ascending: g.below(2) == 0)],
                limit: g.below(2) == 0 ? nil : g.below(100), offset: g.below(20), codec: try Self.codec)
            let items = try ParseQueryEncoder().encode(query)
            let decoded = try ParseQueryEncoder().decode(items, codec: try Self.codec, limits: limits)
            #expect(Self.normalized(decoded.predicate) == Self.normalized(query.predicate), "\(items)")
            #expect(decoded.sort == query.sort && decoded.limit == query.limit && decoded.offset == query.offset)
        }
    }

    /// The error decoding `query` (a URL query string) with `format`.
    static func refusal(_ format: any RESTQueryDecoder, _ query: String, limits: RESTQueryLimits = RESTQueryLimits()) -> RESTQueryDecodingError? {
        let items = URLComponents(string: "http://x/?" + query)?.queryItems ?? []
        do {
            _ = try format.decode(items, codec: try codec, limits: limits)
            return nil
        } catch let error as RESTQueryDecodingError {
            return error
        } catch {
            return RESTQueryDecodingError(parameter: "(codec)", reason: "\(error)")
        }
    }

    @Test func plainParametersOutsideTheFormatAreRefusedByName() {
        let plain = PlainQueryEncoder()
        #expect(Self.refusal(plain, "age_gt=30&colour=red")?.parameter == "colour")
        #expect(Self.refusal(plain, "age_between=1")?.parameter == "age_between")
        #expect(Self.refusal(plain, "age_gt=thirty")?.parameter == "age_gt")
        #expect(Self.refusal(plain, "active=maybe")?.parameter == "active")
        #expect(Self.refusal(plain, "age")?.reason == "has no value")
        #expect(Self.refusal(plain, "age_gt=1&age_gt=2")?.reason == "given twice")
        #expect(Self.refusal(plain, "sort=-age&sort=name")?.reason == "given twice")
        #expect(Self.refusal(plain, "sort=-shoe")?.parameter == "sort=-shoe")
        #expect(Self.refusal(plain, "limit=-1")?.parameter == "limit=-1")
        #expect(Self.refusal(plain, "limit=5000") != nil)  // beyond the page size limit
        #expect(Self.refusal(plain, "page=2") != nil)  // not this encoder's paging
        let pages = PlainQueryEncoder(paging: .pages(page: "page", perPage: "per_page"))
        #expect(Self.refusal(pages, "page=0")?.reason == "pages count from 1")
        #expect(Self.refusal(pages, "page=\(Int.max)&per_page=1000")?.reason == "beyond any page")
        var few = RESTQueryLimits()
        few.conditions = 2
        #expect(Self.refusal(plain, "age=1&name=a&score=2", limits: few)?.parameter == "score")
        few.listValues = 2
        #expect(Self.refusal(plain, "age=1&age=2&age=3", limits: few)?.parameter == "age")
        #expect(Self.refusal(plain, "name=a&age_gte=18&sort=-age,name&limit=10&offset=20") == nil)
    }

    @Test func parseConditionsOutsideTheFormatAreRefusedByName() {
        let parse = ParseQueryEncoder()
        #expect(Self.refusal(parse, "filter=x")?.parameter == "filter")
        #expect(Self.refusal(parse, "where=%5B1%5D")?.reason == "not a JSON object")
        #expect(Self.refusal(parse, #"where={"shoe":1}"#.urlQueryEncoded)?.parameter == "where shoe")
        #expect(Self.refusal(parse, #"where={"age":{"$where":"1"}}"#.urlQueryEncoded)?.parameter == "where age $where")
        #expect(Self.refusal(parse, #"where={"age":{"$gt":"old"}}"#.urlQueryEncoded)?.parameter == "where age")
        #expect(Self.refusal(parse, #"where={"name":{"$regex":"(a|b)"}}"#.urlQueryEncoded) != nil)
        #expect(Self.refusal(parse, #"where={"name":{"$regex":"a.*b"}}"#.urlQueryEncoded) != nil)  // wildcards unanchored
        #expect(Self.refusal(parse, #"where={"name":{"$regex":"a","$options":"x"}}"#.urlQueryEncoded) != nil)
        #expect(Self.refusal(parse, #"where={"age":{"$in":5}}"#.urlQueryEncoded) != nil)
        let deep = #"where={"$or":[{"$or":[{"$or":[{"$or":[{"age":1}]}]}]}]}"#.urlQueryEncoded
        #expect(Self.refusal(parse, deep)?.reason == "nested deeper than 4 levels")
        #expect(Self.refusal(parse, #"where={"name":{"$regex":"^a\\.b","$options":"i"}}&order=-age&limit=3&skip=6"#.urlQueryEncoded) == nil)
    }
}

extension String {
    /// The text with what a query string cannot carry percent-encoded (`=` and `&` kept).
    var urlQueryEncoded: String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+")
        return addingPercentEncoding(withAllowedCharacters: allowed) ?? self
    }
}
