import Foundation
import ModelCore

/// What Observation support costs: a property write and read on records with and without
/// a registrar, and with the process-wide switch off (part of `--async N`).
enum ObservationCost {
    static func measure(_ records: [Person]) {
        let n = records.count
        guard n > 0 else { return }
        func perCall(_ d: Duration, _ calls: Int) -> Double {
            nanoseconds(d, per: calls)
        }
        let rounds = max(1, 1_000_000 / n)
        let wasEnabled = ModelObservation.isEnabled  // off by default on Linux
        defer { ModelObservation.isEnabled = wasEnabled }
        ModelObservation.isEnabled = true
        // Records already read through a property (with observation on) have a registrar.
        var sum = 0
        for record in records { sum &+= record.age }
        var start = ContinuousClock.now
        for r in 0..<rounds { for record in records { record.age = r } }
        let observedWrite = perCall(ContinuousClock.now - start, rounds * n)
        start = ContinuousClock.now
        for _ in 0..<rounds { for record in records { sum &+= record.age } }
        let observedRead = perCall(ContinuousClock.now - start, rounds * n)

        ModelObservation.isEnabled = false
        let fresh = (0..<n).map { _ in Person() }
        for record in fresh { sum &+= record.age }  // no registrar is made now
        start = ContinuousClock.now
        for r in 0..<rounds { for record in fresh { record.age = r } }
        let plainWrite = perCall(ContinuousClock.now - start, rounds * n)
        start = ContinuousClock.now
        for _ in 0..<rounds { for record in fresh { sum &+= record.age } }
        let plainRead = perCall(ContinuousClock.now - start, rounds * n)
        start = ContinuousClock.now
        let unobserved = (0..<n).map { _ in Person() }
        for record in unobserved { sum &+= record.age }
        let firstReadOff = perCall(ContinuousClock.now - start, n)
        ModelObservation.isEnabled = true

        start = ContinuousClock.now
        let made = (0..<n).map { _ in Person() }
        for record in made { sum &+= record.age }  // the first read makes the registrar
        let firstRead = perCall(ContinuousClock.now - start, n)
        blackHole((sum, made, unobserved))
        print("Observation, \(n) records × \(rounds) rounds")
        print(String(format: "  write: observed %6.1f ns   off %6.1f ns   added %6.1f ns", observedWrite, plainWrite, observedWrite - plainWrite))
        print(String(format: "  read:  observed %6.1f ns   off %6.1f ns   added %6.1f ns", observedRead, plainRead, observedRead - plainRead))
        print(String(format: "  new record + first read: observed (registrar made) %6.1f ns   off %6.1f ns", firstRead, firstReadOff))
    }
}
