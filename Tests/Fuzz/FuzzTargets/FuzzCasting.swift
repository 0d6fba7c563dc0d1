import Foundation
import ModelCore

/// The casting table on arbitrary values and targets: a cast throws ``CastError`` or
/// returns a value that casts to itself again (casting is idempotent).
public func fuzzCasting(_ bytes: UnsafeRawBufferPointer) {
    var input = FuzzInput(bytes)
    while !input.isEmpty {
        let types = ColumnType.allCases
        let type = types[Int(input.byte()) % types.count]
        let element = input.byte() % 3 == 0 ? types[Int(input.byte()) % types.count] : nil
        let target = CastTarget(type, optional: input.byte() & 1 == 1, elementType: element)
        let value = input.value()
        guard let cast = try? Caster.cast(value, to: target) else { continue }
        do {
            let again = try Caster.cast(cast, to: target)
            guard again == cast || (again.isNaN && cast.isNaN) else {
                fuzzFailure("cast \(value) to \(target): \(cast), then \(again)")
            }
        } catch {
            fuzzFailure("cast \(value) to \(target) gave \(cast), which does not cast again: \(error)")
        }
    }
}

extension ModelValue {
    fileprivate var isNaN: Bool {
        if case .double(let double) = self { return double.isNaN }
        return false
    }
}
