import Foundation
import SwiftModelCLibPQ

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listens on `swiftmodel_changes` with its own connection, on its own thread, and hands
/// the tables other processes (other adapters) changed to `onChange`. Notifications from
/// its own adapter are skipped. A lost connection is re-established with backoff; the
/// thread wakes at least every 200 ms to notice ``stop()``.
final class ChangeListener: Sendable {
    private let stopped = Locked(false)

    init(conninfo: String, session: PGSession, token: String, onChange: @escaping @Sendable ([String]) -> Void) {
        let stopped = self.stopped
        let thread = Thread {
            var delay = 0.05
            while !stopped.withLock({ $0 }) {
                do {
                    let connection = try PGConnection(conninfo: conninfo, session: session)
                    try connection.execute("LISTEN \(ChangePublisher.channel)")
                    delay = 0.05
                    try Self.listen(connection, token: token, stopped: stopped, onChange: onChange)
                    connection.close()
                } catch {
                    Thread.sleep(forTimeInterval: delay)
                    delay = min(delay * 2, 2)
                }
            }
        }
        thread.name = "SwiftModel LISTEN"
        thread.start()
    }

    private static func listen(
        _ connection: PGConnection, token: String, stopped: Locked<Bool>, onChange: @Sendable ([String]) -> Void
    ) throws {
        guard let handle = connection.handle else { return }
        let socket = PQsocket(handle)
        while !stopped.withLock({ $0 }) {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 200)
            if ready < 0 && errno != EINTR { throw PostgresError(.connection, message: "poll failed on the LISTEN connection") }
            if ready <= 0 { continue }
            guard PQconsumeInput(handle) == 1 else {
                throw PostgresError(.connection, message: String(cString: PQerrorMessage(handle)).trimmingSpaces)
            }
            var tables: [String] = []
            while let notice = PQnotifies(handle) {
                defer { PQfreemem(notice) }
                let payload = String(cString: notice.pointee.extra)
                guard let space = payload.firstIndex(of: " "), payload[..<space] != token else { continue }
                tables += payload[payload.index(after: space)...].split(separator: "\t").map(String.init)
            }
            if !tables.isEmpty { onChange(tables) }
        }
    }

    func stop() { stopped.withLock { $0 = true } }
}
