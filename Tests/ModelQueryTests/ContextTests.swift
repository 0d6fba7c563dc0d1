import ArrayAdapter
import Foundation
import Testing

@Suite struct ContextTests {
    @Test func unitOfWorkLinksUnsavedParents() throws {
        let store = ArrayAdapter()
        try ModelStore.using(store) {
            let context = ModelContext()
            let board = Board()
            board.title = "b"
            let assignee = Assignee()
            assignee.name = "a"
            assignee.board = board
            try context.insert(assignee)
            try context.insert(board)
            try context.save()
            #expect(board.id != nil)
            #expect(assignee.board?.id == board.id)
            #expect(try Assignee.find(assignee.id ?? -1)?.load(\.board)?.id == board.id)
        }
    }
}
