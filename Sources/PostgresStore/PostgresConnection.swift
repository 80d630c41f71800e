internal import CPostgreSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection: statements prepared on it, run one at a time or several in one round trip
/// (``pipeline(_:)``). Used by one thread at a time (the pool hands it out).
final class PostgresConnection {
    private let connection: OpaquePointer
    private var prepared: Set<String> = []

    /// Connects to `url` (a `postgresql://` URL or `key=value` string); the URL's own settings win over the
    /// defaults given here: the application name PostgreSQL shows for the connection, a connect timeout, and TCP
    /// keepalives so that a peer that vanished is noticed.
    init(url: String, applicationName: String) throws(PostgresError) {
        let settings = [
            ("application_name", applicationName), ("connect_timeout", "5"), ("keepalives", "1"),
            ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("dbname", url),
        ]
        let made = Self.withCStrings(settings.map(\.0)) { keywords in
            Self.withCStrings(settings.map(\.1)) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let made else { throw .connection("out of memory") }
        guard PQstatus(made) == CONNECTION_OK else {
            let message = Self.message(made)
            PQfinish(made)
            throw .connection(message)
        }
        // Notices (`… already exists, skipping`) are the server talking to a person at a console: not logged.
        PQsetNoticeProcessor(made, { _, _ in }, nil)
        connection = made
    }

    deinit {
        PQfinish(connection)
    }

    /// Whether the connection is up, as far as libpq knows (a server gone is noticed on the next use), and in step.
    var isUp: Bool { !broken && PQstatus(connection) == CONNECTION_OK }

    /// Set when a pipeline ended out of step: the connection must be reset before it is used again.
    private var broken = false

    /// Reconnects with the same settings; statements are prepared again when next used.
    func reconnect() throws(PostgresError) {
        PQreset(connection)
        prepared = []
        broken = false
        guard isUp else { throw .connection(Self.message(connection)) }
    }

    /// Runs SQL text (several statements allowed), without parameters; for the schema and the listener.
    @discardableResult
    func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
        guard let result = PQexec(connection, sql) else { throw lost() }
        return try PostgresResult(taking: result)
    }

    /// Runs a statement (prepared on this connection first if it is not yet).
    func query(_ statement: PostgresStatement, _ parameters: [PostgresValue]) throws(PostgresError) -> PostgresResult {
        try prepare(statement)
        let result = Self.withParameters(parameters) { values, lengths, formats in
            PQexecPrepared(connection, statement.name, Int32(parameters.count), values, lengths, formats, 1)
        }
        guard let result else { throw lost() }
        return try PostgresResult(taking: result)
    }

    /// Sends the statements at once and reads all their results: one round trip, one transaction (all or nothing),
    /// committed when the server reaches the end. Throws the first statement's error (nothing is stored), or a
    /// connection error (the outcome is unknown: the connection is reset before its next use).
    func pipeline(_ statements: [(PostgresStatement, [PostgresValue])]) throws(PostgresError) -> [PostgresResult] {
        for statement in Set(statements.map(\.0)) { try prepare(statement) }
        guard PQenterPipelineMode(connection) == 1 else { throw lost() }
        let outcome: Result<[PostgresResult], PostgresError>
        do throws(PostgresError) {
            outcome = try runPipeline(statements)
            guard PQexitPipelineMode(connection) == 1 else { throw lost() }
        } catch {
            broken = true
            throw error
        }
        return try outcome.get()
    }

    private func runPipeline(
        _ statements: [(PostgresStatement, [PostgresValue])]
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
            guard let result = PQgetResult(connection) else { throw lost() }
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
            while let extra = PQgetResult(connection) { PQclear(extra) }
        }
        // The end: the commit. Anything else (a commit that failed) leaves the connection out of step with the
        // pipeline, and the outcome unknown.
        guard let sync = PQgetResult(connection) else { throw lost() }
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

    // MARK: Private

    private func prepare(_ statement: PostgresStatement) throws(PostgresError) {
        guard !prepared.contains(statement.name) else { return }
        let types = statement.parameters.map { Oid($0.rawValue) }
        guard let result = PQprepare(connection, statement.name, statement.sql, Int32(types.count), types) else {
            throw lost()
        }
        _ = try PostgresResult(taking: result)
        prepared.insert(statement.name)
    }

    /// The error of a connection that failed under a call.
    private func lost() -> PostgresError {
        .connection(Self.message(connection))
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
