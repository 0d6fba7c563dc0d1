import Foundation
import ModelCore
import ModelQuery
import ModelSerialization

/// An account for the transfer soak.
public final class SoakAccount: Model {
    @Column public var owner: String = ""
    @Column public var balance: Int = 0
    @Column public var touches: Int = 0
    public init() {}
}

/// What a soak did, and every invariant it saw broken.
public struct SoakReport: Sendable, CustomStringConvertible {
    public var transfers = 0, rolledBack = 0, conflicts = 0, sums = 0, snapshots = 0, touches = 0
    public var problems: [String] = []
    public var operations: Int { transfers + rolledBack + sums + snapshots + touches }
    public var description: String {
        "\(operations) operations: \(transfers) transfers, \(rolledBack) rolled back, \(conflicts) conflicts retried, "
            + "\(sums) sums, \(snapshots) full reads, \(touches) writes by id; \(problems.count) invariant violations"
    }
}

/// Runs `threads` threads of mixed work on `store` for `operationsPerThread` operations
/// each: transfers between random accounts in a transaction (read both, move an amount,
/// save both), transfers rolled back by a throw, sums of every balance, full reads, and
/// writes by id of another column. Invariants: every sum and full read sees the same
/// total, the account count never changes, and at the end every balance adds up.
///
/// - Parameter isConflict: errors that mean "retry the transaction" (a serialization
///   failure, say); any other error is a violation.
public func runTransferSoak(
    _ store: any PersistenceAdapter, threads: Int = 8, operationsPerThread: Int,
    isConflict: @escaping @Sendable (any Error) -> Bool = { _ in false }
) throws -> SoakReport {
    let accounts = 16, opening = 1_000, total = accounts * opening
    var ids: [Int64] = []
    try store.transaction {
        for k in 0..<accounts {
            let account = SoakAccount()
            account.owner = "owner \(k)"
            account.balance = opening
            try account.save(to: store)
            guard let id = account.id else { throw StoreError(.invalidRequest, table: "soak_accounts", message: "no id") }
            ids.append(id)
        }
    }
    let accountIDs = ids
    struct Abort: Error {}
    let report = Locked(SoakReport())
    @Sendable func note(_ change: (inout SoakReport) -> Void) { report.withLock { change(&$0) } }
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        for operation in 0..<operationsPerThread {
            let first = Int.random(in: 0..<accounts)
            let from = accountIDs[first], to = accountIDs[(first + Int.random(in: 1..<accounts)) % accounts]
            let amount = Int.random(in: 1...50)
            func transfer() throws {
                guard let source = try SoakAccount.find(from, in: store), let target = try SoakAccount.find(to, in: store) else {
                    throw StoreError(.notFound, table: "soak_accounts", message: "an account vanished")
                }
                source.balance -= amount
                try source.save(to: store)
                target.balance += amount
                try target.save(to: store)
            }
            do {
                switch Int.random(in: 0..<10) {
                case 0..<4:
                    for attempt in 0... {
                        do {
                            try store.transaction(transfer)
                            note { $0.transfers += 1 }
                            break
                        } catch where isConflict(error) && attempt < 50 {
                            note { $0.conflicts += 1 }
                        }
                    }
                case 4:
                    do {
                        try store.transaction {
                            try transfer()
                            throw Abort()
                        }
                    } catch is Abort {
                        note { $0.rolledBack += 1 }
                    } catch where isConflict(error) {
                        note { $0.conflicts += 1 }
                    }
                case 5..<7:
                    let sum = try SoakAccount.query(in: store).sum(\.balance) ?? 0
                    if sum != total { note { $0.problems.append("thread \(thread): a sum saw \(sum), not \(total)") } }
                    note { $0.sums += 1 }
                case 7..<9:
                    let rows = try SoakAccount.query(in: store).all()
                    let sum = rows.reduce(0) { $0 + $1.balance }
                    if rows.count != accounts || sum != total {
                        note { $0.problems.append("thread \(thread): a full read saw \(rows.count) accounts, total \(sum)") }
                    }
                    note { $0.snapshots += 1 }
                default:
                    try SoakAccount.update(id: from, set: ["touches": thread * 100_000 + operation], in: store)
                    note { $0.touches += 1 }
                }
            } catch {
                note { $0.problems.append("thread \(thread), operation \(operation): \(type(of: error)) \(error)") }
            }
        }
    }
    var final = report.withLock { $0 }
    let rows = try SoakAccount.query(in: store).all()
    let sum = rows.reduce(0) { $0 + $1.balance }
    if rows.count != accounts || sum != total {
        final.problems.append("at the end: \(rows.count) accounts, total \(sum), not \(total)")
    }
    return final
}
