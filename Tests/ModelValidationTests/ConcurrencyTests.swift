import ArrayAdapter
import Dispatch
import Foundation
import Testing

@Suite struct ConcurrencyTests {
    final class Member: Model, Validatable {
        @Column var handle: String = ""
        init() {}
        static func validations(_ v: inout Validations<Member>) {
            v.add(\.handle, .presence, .length(3...12), .format("[a-z0-9_]+"))
        }
    }

    /// First use of a model's validations from many threads at once builds one usable plan,
    /// and every record's result is its own.
    @Test func validationsBuildOnceAndRunConcurrently() throws {
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 400) { k in
            let member = Member()
            member.handle = k.isMultiple(of: 2) ? "user_\(k)" : "User \(k)"
            do {
                let errors = try member.validate(store: ArrayAdapter())
                let expected = k.isMultiple(of: 2) ? [String]() : ["invalid"]
                if errors.codes(for: "handle") != expected { failures.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
