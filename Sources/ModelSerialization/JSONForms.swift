import Foundation

/// The conversions between stored values and their JSON forms that every JSON writer
/// and reader shares: dates per the strategy, UUIDs as strings, data as base64.
package enum JSONForms {
    /// A value with no JSON form, or a JSON form that is not the column's type.
    package struct Refusal: Error, CustomStringConvertible {
        /// What to report as found (the value, or a rendering of it).
        package let found: ModelValue
        package let description: String
    }

    /// `value` in its JSON form.
    package static func encode(_ value: ModelValue, dates: JSONDateStrategy) throws(Refusal) -> ModelValue {
        switch value {
        case .null, .bool, .int, .string: return value
        case .double(let d):
            guard d.isFinite else { throw Refusal(found: value, description: "JSON has no representation of \(d)") }
            return value
        case .date(let date):
            guard ModelValue.isStorable(date) else {
                throw Refusal(
                    found: .double(date.timeIntervalSince1970),
                    description: "the date (\(date.timeIntervalSince1970) s since 1970) is outside ModelValue.dateRange")
            }
            switch dates {
            case .iso8601: return .string(DateCodec.iso8601Milliseconds(date))
            case .secondsSince1970: return .double(date.timeIntervalSince1970)
            case .millisecondsSince1970:
                guard let whole = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) else {
                    throw Refusal(found: value, description: "the date is out of range for milliseconds since 1970")
                }
                return .int(whole)
            }
        case .uuid(let uuid): return .string(uuid.uuidString)
        case .data(let data): return .string(data.base64EncodedString())
        case .array(let elements):
            var out: [ModelValue] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try encode(element, dates: dates)) }
            return .array(out)
        case .dictionary(let entries):
            var out: [String: ModelValue] = [:]
            out.reserveCapacity(entries.count)
            for (entry, element) in entries { out[entry] = try encode(element, dates: dates) }
            return .dictionary(out)
        }
    }

    /// Turns JSON forms the casting rules do not know into stored values: numbers into
    /// dates (per the strategy) and base64 strings into data. Everything else is left to
    /// the casting rules.
    package static func decode(
        _ value: ModelValue, type: ColumnType, elementType: ColumnType?, dates: JSONDateStrategy
    ) throws(Refusal) -> ModelValue {
        switch (type, value) {
        case (.date, .int(let n)): return .date(date(fromNumber: Double(n), dates))
        case (.date, .double(let d)): return .date(date(fromNumber: d, dates))
        case (.data, .string(let text)):
            guard let data = Data(base64Encoded: text) else { throw Refusal(found: value, description: "not base64") }
            return .data(data)
        case (.array, .array(let elements)):
            guard let elementType, elementType == .date || elementType == .data else { return value }
            var out: [ModelValue] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try decode(element, type: elementType, elementType: nil, dates: dates)) }
            return .array(out)
        case (.dictionary, .dictionary(let entries)):
            guard let elementType, elementType == .date || elementType == .data else { return value }
            var out: [String: ModelValue] = [:]
            for (key, element) in entries { out[key] = try decode(element, type: elementType, elementType: nil, dates: dates) }
            return .dictionary(out)
        default:
            return value
        }
    }

    private static func date(fromNumber number: Double, _ dates: JSONDateStrategy) -> Date {
        switch dates {
        case .iso8601, .secondsSince1970: Date(timeIntervalSince1970: number)
        case .millisecondsSince1970: Date(timeIntervalSince1970: number / 1000)
        }
    }
}
