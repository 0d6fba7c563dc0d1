import ArrayAdapter
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `--peak-memory [N]`: issue 41's memory goals, each case in a child process of its own
/// (this binary run again with `--peak-memory-case CASE N`), its peak resident set read
/// from `wait4`'s resource usage, so no case inherits another's heap:
///
/// - `idle`: the process doing nothing (the runtime's own share, subtracted below);
/// - `structs`: N `PersonRow` structs in an array;
/// - `locked`: N records saved into ``LockedClassStore`` (a class per record, rows as
///   structs in a dictionary behind a lock), the records then dropped;
/// - `array`: N `Person` records saved one by one into an ArrayAdapter, then dropped;
/// - `array-tx`: the same saves inside one `store.transaction {}`.
///
/// Goals: `array` ≤ 2× `locked`; `array-tx` ≤ 1.5× `array` (both above `idle`).
enum PeakMemory {
    static let cases = ["idle", "structs", "locked", "array", "array-tx"]

    static func run(_ n: Int) throws {
        var peaks: [String: Double] = [:]
        for name in cases { peaks[name] = try child(name, n) }
        let idle = peaks["idle"] ?? 0
        func above(_ name: String) -> Double { (peaks[name] ?? 0) - idle }
        print("\nPeak resident set, n = \(n), one child process per case (MB; above idle)")
        for name in cases {
            let line = name.padding(toLength: 10, withPad: " ", startingAt: 0)
            print(line + String(format: "%9.1f MB %9.1f MB %7.0f bytes/record", peaks[name] ?? 0, above(name), above(name) * 1_048_576 / Double(n)))
        }
        print(String(format: "array / locked: %.2fx (goal <= 2)   array-tx / array: %.2fx (goal <= 1.5)", above("array") / above("locked"), above("array-tx") / above("array")))
    }

    /// Runs one case in a child process; its peak resident set in MB.
    private static func child(_ name: String, _ n: Int) throws -> Double {
        // This binary, however it was started (a relative path, `swift run`).
        let executable = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        let arguments = [executable, "--peak-memory-case", name, String(n)]
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let spawned = posix_spawn(&pid, executable, nil, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkError("posix_spawn \(executable): error \(spawned)") }
        var status: Int32 = 0
        var usage = rusage()
        guard wait4(pid, &status, 0, &usage) == pid else { throw BenchmarkError("wait4 for the \(name) case failed") }
        guard status == 0 else { throw BenchmarkError("the \(name) case exited with status \(status)") }
        return Double(usage.ru_maxrss) / 1024  // ru_maxrss is in KB on Linux
    }

    /// The body of one case, in the child process.
    static func runCase(_ name: String, _ n: Int) throws {
        switch name {
        case "idle":
            blackHole(n)
        case "structs":
            let rows = (0..<n).map { Fixture.row($0) }
            blackHole(rows)
        case "locked":
            let store = LockedClassStore()
            for k in 0..<n {
                let object = PersonObject()
                object.fill(k)
                store.insert(object)
            }
            blackHole(store)
        case "array", "array-tx":
            let store = ArrayAdapter()
            let save = {
                for k in 0..<n {
                    let person = Person()
                    Fixture.fill(person, k)
                    try person.save(to: store)
                }
            }
            if name == "array" { try save() } else { try store.transaction(save) }
            blackHole(store)
        default:
            throw BenchmarkError("no peak-memory case \(name); cases: \(cases.joined(separator: ", "))")
        }
    }
}
