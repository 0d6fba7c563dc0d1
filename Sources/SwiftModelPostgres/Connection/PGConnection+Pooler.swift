import SwiftModelCLibPQ

/// Statements behind a transaction pooler (``PGSession/unnamedStatements``): each
/// statement goes out unnamed with its parameter types — Parse, Bind, Execute and Sync in
/// one message flight, so the pooler runs all of it on one server connection — and the
/// types are described once per connection, in a pipeline ending in one sync
/// (``PGStatement``). Outside a transaction the session's local settings
/// (``PGSession/localSettings``) go first in the same pipeline: everything before a sync is
/// one transaction on one server connection.
extension PGConnection {
    /// The local-settings statement to send before a statement, when the session has one
    /// and no transaction is open (a transaction got them with its `BEGIN`).
    func localSettings(_ handle: OpaquePointer) -> String? {
        guard let local = session.localSettings, PQtransactionStatus(handle) == PQTRANS_IDLE else { return nil }
        return local
    }
}
