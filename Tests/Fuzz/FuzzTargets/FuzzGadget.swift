import Foundation
import ModelCore

/// Every column type, for the fuzz targets.
public final class FuzzGadget: Model {
    @Column public var name: String = ""
    @Column(options: .text) public var manual: String = ""
    @Column public var count: Int = 0
    @Column public var small: Int32 = 0
    @Column public var ratio: Double = 0
    @Column public var enabled: Bool = false
    @Column public var made: Date = Date(timeIntervalSinceReferenceDate: 0)
    @Column public var serial: UUID = UUID()
    @Column public var payload: Data = Data()
    @Column public var tags: [String] = []
    @Column public var specs: [String: ModelValue] = [:]
    @Column public var note: String?
    @Column public var level: Int?
    public init() {}
}

/// Reads fuzz input as a stream of choices.
struct FuzzInput {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func word() -> UInt64 {
        (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
    }

    mutating func data(_ maximum: Int = 64) -> [UInt8] {
        let count = min(Int(byte()) % (maximum + 1), bytes.count - offset)
        guard count > 0 else { return [] }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A value of any kind, nested up to `depth`.
    mutating func value(depth: Int = 2) -> ModelValue {
        switch byte() % 10 {
        case 0: return .null
        case 1: return .bool(byte() & 1 == 1)
        case 2: return .int(Int64(bitPattern: word()))
        case 3: return .double(Double(bitPattern: word()))
        case 4: return .string(String(decoding: data(), as: UTF8.self))
        case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: word())))
        case 6: return .data(Data(data()))
        case 7: return .uuid(UUID(uuid: (byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte(), byte())))
        case 8:
            guard depth > 0 else { return .null }
            return .array((0..<Int(byte() % 4)).map { _ in value(depth: depth - 1) })
        default:
            guard depth > 0 else { return .null }
            var dictionary: [String: ModelValue] = [:]
            for _ in 0..<Int(byte() % 4) { dictionary[String(decoding: data(8), as: UTF8.self)] = value(depth: depth - 1) }
            return .dictionary(dictionary)
        }
    }
}
