@testable import ModelCore
import Testing

/// `AddressTable` finds every key it was made from at its position and no other key,
/// including keys whose probes start at the same slot.
@Suite struct AddressTableTests {
    /// The addresses of real objects, as the schema registry and the table catalog key them.
    @Test func everyObjectAddressIsFoundAtItsPosition() {
        let objects = (0..<300).map { _ in Box() }
        let keys = objects.map { UInt(bitPattern: ObjectIdentifier($0)) }
        let table = AddressTable(keys)
        for (position, key) in keys.enumerated() { #expect(table.position(of: key) == position) }
        let others = (0..<300).map { _ in Box() }
        for other in others { #expect(table.position(of: UInt(bitPattern: ObjectIdentifier(other))) == nil) }
        withExtendedLifetime(objects) {}
    }

    /// Keys whose probes start at one slot are each found past the others, and a missing key
    /// starting there ends at the first empty slot.
    @Test func keysWhoseProbesStartAtOneSlotAreFoundPastEachOther() {
        let shift: UInt = 61  // three keys: a table of 8 slots
        let start = AddressTable.firstSlot(of: 16, shift: shift)
        let sameStart = stride(from: UInt(16), to: 1 << 20, by: 16).filter { AddressTable.firstSlot(of: $0, shift: shift) == start }
        let keys = Array(sameStart.prefix(3))
        let table = AddressTable(keys)
        #expect(table.shift == shift)
        for (position, key) in keys.enumerated() { #expect(table.position(of: key) == position) }
        #expect(table.position(of: sameStart[3]) == nil)
    }

    @Test func anEmptyTableFindsNothingAndARepeatedKeyKeepsItsLastPosition() {
        #expect(AddressTable([]).position(of: 64) == nil)
        #expect(AddressTable([0]).position(of: 0) == nil)
        let table = AddressTable([32, 48, 32])
        #expect(table.position(of: 32) == 2)
        #expect(table.position(of: 48) == 1)
        #expect(table.position(of: 80) == nil)
    }

    private final class Box {}
}
