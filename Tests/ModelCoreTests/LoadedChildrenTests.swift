@testable import ModelCore
import Testing

/// A record's loaded children by relation location (``LoadedChildren``): the first
/// relation inline, the others in a dictionary, with the answers of one dictionary.
struct LoadedChildrenTests {
    func ids(_ records: [ModelObject]?) -> [ObjectIdentifier]? { records?.map(ObjectIdentifier.init) }

    @Test func eachLocationKeepsItsOwnChildrenWhereverTheyAreStored() {
        let a = UndoNote(), b = UndoNote(), c = UndoNote()
        var children = LoadedChildren()
        #expect(children[1] == nil && children[2] == nil)
        children[1] = [a]
        children[2] = [b, c]
        children[3] = []
        #expect(ids(children[1]) == ids([a]) && ids(children[2]) == ids([b, c]) && ids(children[3]) == [])
        #expect(children[4] == nil)
        // Replacing and forgetting, inline and not.
        children[1] = [c]
        children[2] = nil
        #expect(ids(children[1]) == ids([c]) && children[2] == nil && ids(children[3]) == [])
        children[1] = nil
        #expect(children[1] == nil && ids(children[3]) == [])
    }

    /// A location stored in the dictionary while another was inline, set again once the
    /// inline one is gone, moves inline: forgetting it then leaves no older copy behind.
    @Test func aLocationMovedInlineLeavesNoStaleCopy() {
        let a = UndoNote(), b = UndoNote(), c = UndoNote()
        var children = LoadedChildren()
        children[1] = [a]
        children[2] = [b]
        children[1] = nil
        children[2] = [c]
        #expect(ids(children[2]) == ids([c]))
        children[2] = nil
        #expect(children[2] == nil && children[1] == nil)
    }
}
