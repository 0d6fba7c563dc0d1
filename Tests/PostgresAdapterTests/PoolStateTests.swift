import Foundation
import PostgresAdapter
import Testing

/// The connection pool's decisions, driven without a server or a clock: every step of
/// ``PoolState`` with made-up connections, waiters and instants.
@Suite struct PoolStateTests {
    final class Conn: CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        var description: String { name }
    }

    typealias State = PoolState<Conn, String>
    let start = ContinuousClock.now
    func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    func pool(_ maximum: Int = 2) -> State { State(maximum: maximum, healthCheckInterval: .seconds(30), now: start) }

    /// A healthy connection coming back at `seconds`.
    @discardableResult
    func give(_ state: inout State, _ connection: Conn, at seconds: Double) -> State.Release {
        state.release(connection, healthy: true, inTransaction: false, broken: false, now: at(seconds))
    }

    /// Acquires by `waiters` at `seconds`, each waiting until `deadline`.
    func take(_ state: inout State, _ waiters: String..., at seconds: Double, until deadline: Double) {
        for waiter in waiters { _ = state.acquire(now: at(seconds), deadline: at(deadline), waiter: waiter) }
    }

    @Test func opensUpToTheMaximumThenQueuesOrRefuses() {
        var state = pool(2)
        guard case .open = state.acquire(now: at(0), deadline: at(5), waiter: "a").0 else { Issue.record("first opens"); return }
        guard case .open = state.acquire(now: at(0), deadline: at(5), waiter: "b").0 else { Issue.record("second opens"); return }
        guard case .exhausted = state.acquire(now: at(0), deadline: nil, waiter: "now").0 else { Issue.record("no wait: refused"); return }
        let (third, id) = state.acquire(now: at(0), deadline: at(5), waiter: "c")
        guard case .queued = third else { Issue.record("third waits"); return }
        #expect(id != nil)
        #expect(state.open == 2 && state.waiting == 1)
    }

    @Test func releasedConnectionsGoToWaitersFirstComeFirstServed() {
        var state = pool(1)
        take(&state, "lender", "blocking thread", "async task", at: 0, until: 5)
        let conn = Conn("c1")
        guard case .handOver(let handed, let first) = give(&state, conn, at: 1) else {
            Issue.record("handed to a waiter")
            return
        }
        #expect(handed === conn && first == "blocking thread")
        guard case .handOver(_, let second) = give(&state, conn, at: 2) else {
            Issue.record("handed to the next")
            return
        }
        #expect(second == "async task")
        guard case .kept = give(&state, conn, at: 3) else {
            Issue.record("kept idle once nobody waits")
            return
        }
        #expect(state.idleCount == 1 && state.open == 1)
    }

    @Test func waitersTimeOutAtTheirDeadlinesOnly() {
        var state = pool(1)
        take(&state, "lender", "early", at: 0, until: 5)
        take(&state, "late", at: 2, until: 7)
        #expect(state.nextDeadline == at(5))
        #expect(state.expire(at: at(4.9)).isEmpty)
        #expect(state.expire(at: at(5)) == ["early"])
        #expect(state.waiting == 1 && state.nextDeadline == at(7))
        #expect(state.expire(at: at(8)) == ["late"])
        #expect(state.nextDeadline == nil)
    }

    @Test func aBrokenConnectionMakesTheIdleOnesSuspect() {
        var state = pool(2)
        take(&state, "a", "b", at: 0, until: 5)
        let idle = Conn("idle"), broken = Conn("broken")
        give(&state, idle, at: 1)
        guard case .close(let closed, let slot) = state.release(broken, healthy: false, inTransaction: false, broken: true, now: at(4)) else {
            Issue.record("a broken connection is closed")
            return
        }
        #expect(closed === broken && slot == nil && state.open == 1)
        // Idle since before the break (the server may have restarted): pinged, although
        // well within the health-check interval.
        guard case .lend(let lent, let ping) = state.acquire(now: at(5), deadline: at(9), waiter: "after").0 else {
            Issue.record("lends")
            return
        }
        #expect(lent === idle && ping)
        // Returned after the break: trusted again.
        give(&state, idle, at: 6)
        guard case .lend(_, let again) = state.acquire(now: at(7), deadline: at(9), waiter: "later").0 else { Issue.record("lends"); return }
        #expect(!again)
    }

    @Test func aBrokenConnectionsSlotGoesToTheOldestWaiter() {
        var state = pool(1)
        take(&state, "holder", "first", "second", at: 0, until: 5)
        guard case .close(_, let slot) = state.release(Conn("c"), healthy: false, inTransaction: false, broken: true, now: at(1)) else {
            Issue.record("closed")
            return
        }
        #expect(slot == "first", "it opens a connection in the freed slot")
        #expect(state.open == 1 && state.waiting == 1)
        // Its open failed: the slot moves on to the next waiter.
        #expect(state.discard() == "second")
        #expect(state.discard() == nil && state.open == 0)
    }

    @Test func aConnectionIdlePastTheHealthCheckIntervalIsPinged() {
        var state = pool(1)
        take(&state, "a", at: 0, until: 5)
        give(&state, Conn("c"), at: 1)
        guard case .lend(_, let ping) = state.acquire(now: at(31), deadline: at(40), waiter: "b").0 else { Issue.record("lends"); return }
        #expect(ping)
    }

    @Test func aConnectionLeftInATransactionIsClosedAndItsSlotFreed() {
        var state = pool(1)
        take(&state, "a", at: 0, until: 5)
        guard case .close(_, let slot) = state.release(Conn("c"), healthy: true, inTransaction: true, broken: false, now: at(1)) else {
            Issue.record("closed")
            return
        }
        #expect(slot == nil && state.open == 0 && state.idleCount == 0)
        guard case .open = state.acquire(now: at(1), deadline: at(5), waiter: "b").0 else { Issue.record("a fresh one opens"); return }
    }

    @Test func aCancelledWaiterLeavesTheQueueAndAGrantedOneIsNotCancelled() {
        var state = pool(1)
        take(&state, "lender", at: 0, until: 5)
        let (_, first) = state.acquire(now: at(0), deadline: at(5), waiter: "cancelled")
        let (_, second) = state.acquire(now: at(0), deadline: at(5), waiter: "served")
        #expect(state.cancel(first!) == "cancelled")
        #expect(state.cancel(first!) == nil)
        guard case .handOver(_, let to) = give(&state, Conn("c"), at: 1) else {
            Issue.record("handed over")
            return
        }
        #expect(to == "served")
        #expect(state.cancel(second!) == nil, "granted before its cancellation arrived: it keeps the connection")
    }

    @Test func closingFailsWaitersClosesIdleConnectionsAndCountsLentOnesUntilTheyComeBack() {
        var state = pool(2)
        take(&state, "a", "b", at: 0, until: 5)
        let idle = Conn("idle"), lent = Conn("lent")
        give(&state, idle, at: 1)
        take(&state, "c", at: 1, until: 5)  // takes the idle one
        give(&state, idle, at: 1)
        take(&state, "d", at: 1, until: 5)  // takes it again: both lent
        give(&state, idle, at: 1)
        take(&state, "w1", "w2", at: 1, until: 5)
        #expect(state.waiting == 1 && state.idleCount == 0)
        let (closedIdle, failed) = state.close()
        #expect(closedIdle.isEmpty && failed == ["w2"])
        #expect(state.open == 2, "two connections are still lent")
        guard case .closed = state.acquire(now: at(2), deadline: at(5), waiter: "late").0 else { Issue.record("refused"); return }
        guard case .close(let back, let slot) = give(&state, lent, at: 2) else {
            Issue.record("a connection coming back to a closed pool is closed")
            return
        }
        #expect(back === lent && slot == nil && state.open == 1)
        give(&state, idle, at: 2)
        #expect(state.open == 0)
    }
}
