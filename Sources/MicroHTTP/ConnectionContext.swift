/// State of one TCP connection and of the request currently on it.
///
/// Owned by the connection (retained in MHD's socket context from connect to close). Requests on
/// one connection are sequential and MHD calls back for a connection on one thread at a time, so
/// the fields need no lock.
final class ConnectionContext {
    /// The client's address, resolved once per connection.
    var peer: String?
    /// The connection's socket (-1 until known).
    var socket: Int32 = -1
    /// The request target as received (path and query, still encoded), from the URI log callback.
    var rawTarget = ""
    /// Set when a request body was refused (413) while the client may still be sending it: the socket then
    /// lingers after libmicrohttpd lets it go (``LingeringClose``).
    var lingers = false
    /// Its deadline and idleness, shared with the ``ConnectionTable`` (set when it opens).
    var timer: ConnectionTimer?

    // Per request; reset by `begin`.
    var method = ""
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    var responded = false
    var status = 0
    var bytes = 0
    var stream: EventStream?
    var startedAt = ContinuousClock.now

    /// Starts a new request on this connection.
    func begin(method: String) {
        self.method = method
        headers = HTTPHeaders()
        body = []
        responded = false
        status = 0
        bytes = 0
        stream = nil
        startedAt = .now
    }

    /// Drops the request's data once it completed (keeps the connection's fields).
    func end() {
        body = []
        headers = HTTPHeaders()
        stream = nil
    }
}
