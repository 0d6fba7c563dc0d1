import Foundation

extension ModelValue: Codable {
    /// Reads any JSON value: `null`, booleans, integers (as ``int(_:)``), other numbers,
    /// strings, arrays and objects.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([ModelValue].self) {
            self = .array(array)
        } else if let dictionary = try? container.decode([String: ModelValue].self) {
            self = .dictionary(dictionary)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    /// Writes the value as JSON does: dates as ISO 8601 strings, UUIDs as strings, data
    /// as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .double(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .date(let d): try container.encode(DateCodec.iso8601Milliseconds(d))
        case .uuid(let u): try container.encode(u.uuidString)
        case .data(let d): try container.encode(d.base64EncodedString())
        case .array(let a): try container.encode(a)
        case .dictionary(let d): try container.encode(d)
        }
    }
}
