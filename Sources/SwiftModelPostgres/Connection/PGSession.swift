import ModelSQL

/// How a connection's session is set up, and how it sends statements: directly to the
/// server, statements are prepared once per connection and settings are `SET` once per
/// session; behind a transaction pooler, where each transaction (and each statement outside
/// one) may run on another server connection shared with other clients, statements are
/// unnamed and settings are applied per transaction.
struct PGSession: Sendable {
    /// Statements run once when the connection opens.
    var setup: [String] = []
    /// Statements are sent unnamed (parsed with each execution, their parameter types
    /// described once per connection) instead of prepared under a name: a pooler in
    /// transaction mode does not keep a named statement for the next transaction.
    var unnamedStatements = false
    /// One statement setting the configured settings for the current transaction only
    /// (`set_config(…, true)`): sent with every statement outside a transaction, in the same
    /// pipeline, and after every `BEGIN`; nil when there are none.
    var localSettings: String?
}

extension PostgresConfiguration {
    /// The session of pooled connections: ``directSession``, or behind a transaction
    /// pooler the per-transaction form.
    var session: PGSession {
        guard transactionPooling else { return directSession }
        var settings: [String] = []
        if let schema { settings.append(Self.setLocal("search_path", SQLText.quote(schema))) }
        if let milliseconds = statementTimeoutMilliseconds { settings.append(Self.setLocal("statement_timeout", String(milliseconds))) }
        // The pooler tracks TimeZone per client (it is reported by the server) and restores
        // it on every server connection it lends; client_min_messages would leak to other
        // clients and is not needed (notices are silenced in the client).
        return PGSession(
            setup: ["SET TIME ZONE 'UTC'"], unnamedStatements: true,
            localSettings: settings.isEmpty ? nil : "SELECT " + settings.joined(separator: ", "))
    }

    /// A session straight to the server: the settings are `SET` once.
    var directSession: PGSession { PGSession(setup: sessionSetup) }

    /// Where the change listener connects: ``listenConnection``, else the primary unless it
    /// is a transaction pooler (which cannot deliver notifications to a session).
    var listenerServer: String? {
        listenConnection ?? (transactionPooling ? nil : primary)
    }

    var statementTimeoutMilliseconds: Int? {
        statementTimeout.map { max(1, Int($0.seconds * 1000)) }
    }

    private static func setLocal(_ name: String, _ value: String) -> String {
        "set_config('\(name)', '\(value.replacingOccurrences(of: "'", with: "''"))', true)"
    }
}
