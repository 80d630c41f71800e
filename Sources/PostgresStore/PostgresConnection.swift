internal import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection: statements prepared on it, run one at a time or several in one round trip
/// (``pipeline(_:until:)``). Used by one thread at a time (the pool hands it out).
///
/// No call waits for the server past a deadline (by default ``timeout`` from the call): libpq has no client-side
/// limit of its own, and a server that hangs or is cut off without a word never answers, so everything is sent
/// without blocking and the socket is polled until the deadline. A call that runs out of time throws
/// ``PostgresError/timeout(_:)`` and leaves the connection down (``isUp`` is false): its owner closes it.
final class PostgresConnection {
    private let connection: OpaquePointer
    private var prepared: Set<String> = []
    /// How long a call waits for the server unless given a deadline.
    let timeout: Duration
    /// Where its round trips are counted, if anywhere.
    private let roundTrips: RoundTrips?

    /// Connects to `url` (a `postgresql://` URL or `key=value` string) by `deadline` (default: `timeout` from
    /// now). The URL's own settings win over the defaults given here: the application name PostgreSQL shows for
    /// the connection, and limits derived from `timeout` (``settings(applicationName:timeout:)``).
    init(
        url: String, applicationName: String, timeout: Duration = .seconds(5),
        until deadline: ContinuousClock.Instant? = nil, counting roundTrips: RoundTrips? = nil
    ) throws(PostgresError) {
        let deadline = deadline ?? .now + timeout
        let settings = Self.settings(applicationName: applicationName, timeout: timeout) + [("dbname", url)]
        let started = Self.withCStrings(settings.map(\.0)) { keywords in
            Self.withCStrings(settings.map(\.1)) { values in PQconnectStartParams(keywords, values, 1) }
        }
        guard let started else { throw .connection("out of memory") }
        do throws(PostgresError) {
            try Self.connect(started, until: deadline, timeout: timeout)
            guard PQsetnonblocking(started, 1) == 0 else { throw .connection(Self.message(started)) }
        } catch {
            PQfinish(started)
            throw error
        }
        // Notices (`… already exists, skipping`) are the server talking to a person at a console: not logged.
        PQsetNoticeProcessor(started, { _, _ in }, nil)
        connection = started
        self.timeout = timeout
        self.roundTrips = roundTrips
        // That this node keeps the session rows' checksums, which the store's trigger reads (``PostgresSchema``,
        // migration 6): set here rather than in the connection's options, which a URL's own `options` replace.
        _ = try execute("SET switchyard.checksums = 'on'", until: deadline)
    }

    deinit {
        // Does not block: the connection is in nonblocking mode, so the goodbye is sent only if the socket takes it.
        PQfinish(connection)
    }

    /// The connection parameters every connection starts from (a URL's own win, being read after them): a connect
    /// timeout for libpq's blocking calls (whole seconds, at least 2); TCP keepalives and a TCP user timeout, so
    /// that a peer cut off without a word is noticed even by an idle connection; and, server-side, a
    /// `statement_timeout` as a second net behind the client's deadline, and an
    /// `idle_in_transaction_session_timeout` that ends a transaction whose client went away halfway.
    static func settings(applicationName: String, timeout: Duration) -> [(String, String)] {
        let milliseconds = max(1, Self.milliseconds(timeout))
        return [
            ("application_name", applicationName), ("connect_timeout", "\(max(2, (milliseconds + 999) / 1000))"),
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "\(milliseconds)"),
            (
                "options",
                "-c statement_timeout=\(milliseconds) -c idle_in_transaction_session_timeout=\(2 * milliseconds)"
            ),
        ]
    }

    /// Whether the connection is up, as far as libpq knows (a server gone is noticed on the next use), and in step.
    var isUp: Bool { !broken && PQstatus(connection) == CONNECTION_OK }

    /// Set when a call failed halfway (timed out, lost, or a pipeline out of step): the connection is not used again.
    private var broken = false

    /// Runs SQL text (several statements allowed), without parameters; for the schema and the listener. Returns
    /// the last statement's result.
    @discardableResult
    func execute(_ sql: String, until deadline: ContinuousClock.Instant? = nil) throws(PostgresError) -> PostgresResult
    {
        let deadline = deadline ?? .now + timeout
        try usable()
        guard PQsendQuery(connection, sql) == 1 else { throw lost() }
        roundTrips?.add()
        return try results(until: deadline)
    }

    /// Runs a statement (prepared on this connection first if it is not yet).
    func query(
        _ statement: PostgresStatement, _ parameters: [PostgresValue], until deadline: ContinuousClock.Instant? = nil
    ) throws(PostgresError) -> PostgresResult {
        let deadline = deadline ?? .now + timeout
        try usable()
        try prepare(statement, until: deadline)
        let sent = Self.withParameters(parameters) { values, lengths, formats in
            PQsendQueryPrepared(connection, statement.name, Int32(parameters.count), values, lengths, formats, 1)
        }
        guard sent == 1 else { throw lost() }
        roundTrips?.add()
        return try results(until: deadline)
    }

    /// Sends the statements at once and reads all their results: one round trip, one transaction (all or nothing),
    /// committed when the server reaches the end. Throws the first statement's error (nothing is stored), or a
    /// connection error or timeout (the outcome is unknown: the connection is not used again).
    func pipeline(
        _ statements: [(PostgresStatement, [PostgresValue])], until deadline: ContinuousClock.Instant? = nil
    ) throws(PostgresError) -> [PostgresResult] {
        let deadline = deadline ?? .now + timeout
        try usable()
        for statement in Set(statements.map(\.0)) { try prepare(statement, until: deadline) }
        guard PQenterPipelineMode(connection) == 1 else { throw lost() }
        roundTrips?.add()
        let outcome: Result<[PostgresResult], PostgresError>
        do throws(PostgresError) {
            outcome = try runPipeline(statements, until: deadline)
            guard PQexitPipelineMode(connection) == 1 else { throw lost() }
        } catch {
            broken = true
            throw error
        }
        return try outcome.get()
    }

    private func runPipeline(
        _ statements: [(PostgresStatement, [PostgresValue])], until deadline: ContinuousClock.Instant
    ) throws(PostgresError) -> Result<[PostgresResult], PostgresError> {
        for (statement, parameters) in statements {
            let sent = Self.withParameters(parameters) { values, lengths, formats in
                PQsendQueryPrepared(connection, statement.name, Int32(parameters.count), values, lengths, formats, 1)
            }
            guard sent == 1 else { throw lost() }
        }
        guard PQpipelineSync(connection) == 1 else { throw lost() }
        var results: [PostgresResult] = []
        var failure: PostgresError?
        for _ in statements {
            // A statement after a failed one is skipped (PGRES_PIPELINE_ABORTED).
            guard let result = try nextResult(until: deadline) else { throw lost() }
            if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                PQclear(result)
            } else {
                do {
                    results.append(try PostgresResult(taking: result))
                } catch {
                    failure = failure ?? error
                }
            }
            // Each statement's results end with a null.
            while let extra = try nextResult(until: deadline) { PQclear(extra) }
        }
        // The end: the commit. Anything else (a commit that failed) leaves the connection out of step with the
        // pipeline, and the outcome unknown.
        guard let sync = try nextResult(until: deadline) else { throw lost() }
        let status = PQresultStatus(sync)
        PQclear(sync)
        guard status == PGRES_PIPELINE_SYNC else {
            throw .connection("the commit failed: \(Self.message(connection))")
        }
        return failure.map { .failure($0) } ?? .success(results)
    }

    // MARK: Notifications (the listener's connection)

    /// The connection's socket, to wait on for notifications.
    var socket: Int32 { PQsocket(connection) }

    /// Reads what arrived on the socket; then ``notifications()`` returns what it held.
    func consumeInput() throws(PostgresError) {
        guard PQconsumeInput(connection) == 1 else { throw lost() }
    }

    /// The notifications received so far: channel and payload.
    func notifications() -> [(channel: String, payload: String)] {
        var received: [(String, String)] = []
        while let notification = PQnotifies(connection) {
            received.append(
                (String(cString: notification.pointee.relname), String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return received
    }

    // MARK: Waiting for the server

    private func prepare(_ statement: PostgresStatement, until deadline: ContinuousClock.Instant) throws(PostgresError)
    {
        guard !prepared.contains(statement.name) else { return }
        let types = statement.parameters.map { Oid($0.rawValue) }
        guard PQsendPrepare(connection, statement.name, statement.sql, Int32(types.count), types) == 1 else {
            throw lost()
        }
        roundTrips?.add()
        _ = try results(until: deadline)
        prepared.insert(statement.name)
    }

    /// Reads every result of what was sent: the last one, or the first error (the rest read all the same, so that
    /// the connection is in step for its next call).
    private func results(until deadline: ContinuousClock.Instant) throws(PostgresError) -> PostgresResult {
        var last: PostgresResult?
        var failure: PostgresError?
        while let result = try nextResult(until: deadline) {
            do {
                last = try PostgresResult(taking: result)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        guard let last else { throw lost() }
        return last
    }

    /// Sends what is still queued, then waits until a whole result has arrived (or the end of the results: nil).
    private func nextResult(until deadline: ContinuousClock.Instant) throws(PostgresError) -> OpaquePointer? {
        try flush(until: deadline)
        while PQisBusy(connection) == 1 {
            _ = try wait(for: POLLIN, until: deadline)
            guard PQconsumeInput(connection) == 1 else { throw lost() }
        }
        return PQgetResult(connection)
    }

    /// Sends everything queued. Meanwhile what the server sends is read in, so that neither side waits for the
    /// other to read.
    private func flush(until deadline: ContinuousClock.Instant) throws(PostgresError) {
        while true {
            switch PQflush(connection) {
            case 0:
                return
            case 1:
                let ready = try wait(for: POLLIN | POLLOUT, until: deadline)
                if ready & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                    guard PQconsumeInput(connection) == 1 else { throw lost() }
                }
            default:
                throw lost()
            }
        }
    }

    /// Waits until the socket is ready for `events`; past the deadline the connection is given up.
    private func wait(for events: Int32, until deadline: ContinuousClock.Instant) throws(PostgresError) -> Int16 {
        do throws(PostgresError) {
            return try Self.wait(connection, for: events, until: deadline, timeout: timeout)
        } catch {
            broken = true
            throw error
        }
    }

    /// Polls the connection's socket until it is ready for `events` (returns what it is ready for), or throws
    /// ``PostgresError/timeout(_:)`` (naming `timeout`) once `deadline` has passed.
    private static func wait(
        _ connection: OpaquePointer, for events: Int32, until deadline: ContinuousClock.Instant, timeout: Duration
    ) throws(PostgresError) -> Int16 {
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw .connection(message(connection)) }
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .timeout(timeout) }
            var descriptor = pollfd(fd: socket, events: Int16(events), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: milliseconds(left)))
            if ready > 0 { return descriptor.revents }
            if ready < 0, errno != EINTR { throw .connection("waiting for the server failed (errno \(errno))") }
        }
    }

    /// Drives an asynchronous connection attempt (`PQconnectStartParams`) to its end by `deadline`.
    private static func connect(
        _ connection: OpaquePointer, until deadline: ContinuousClock.Instant, timeout: Duration
    ) throws(PostgresError) {
        guard PQstatus(connection) != CONNECTION_BAD else { throw .connection(message(connection)) }
        // Before the first PQconnectPoll, as if it had asked to write.
        var polling = PGRES_POLLING_WRITING
        while true {
            switch polling {
            case PGRES_POLLING_OK: return
            case PGRES_POLLING_FAILED: throw .connection(message(connection))
            case PGRES_POLLING_READING: _ = try wait(connection, for: POLLIN, until: deadline, timeout: timeout)
            default: _ = try wait(connection, for: POLLOUT, until: deadline, timeout: timeout)
            }
            polling = PQconnectPoll(connection)
        }
    }

    // MARK: Private

    /// A positive duration in whole milliseconds, rounded up (a wait that ends just before a deadline would wait
    /// again for nothing).
    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }

    /// Refuses a connection given up (it may be halfway through an earlier call).
    private func usable() throws(PostgresError) {
        guard !broken else { throw .connection("the connection was given up after a failure") }
    }

    /// The error of a connection that failed under a call; it is not used again.
    private func lost() -> PostgresError {
        broken = true
        return .connection(Self.message(connection))
    }

    private static func message(_ connection: OpaquePointer) -> String {
        let text = PQerrorMessage(connection).map { String(cString: $0) } ?? ""
        let trimmed = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return trimmed.isEmpty ? "the connection was lost" : trimmed
    }

    private static func withParameters<Result>(
        _ parameters: [PostgresValue],
        _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) -> Result
    ) -> Result {
        let encoded = parameters.map(\.encoded)
        let lengths = encoded.map { Int32($0.count) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        // Each buffer lives until the call returns.
        let buffers = encoded.map { bytes -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        return body(buffers.map { UnsafePointer($0) }, lengths, formats)
    }

    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        return body(copies.map { UnsafePointer($0) } + [nil])
    }
}
