internal import CMicroHTTPD
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the libmicrohttpd callbacks reach through their `cls` pointer: configuration, handler,
/// open streams and counters. Called concurrently from MHD's worker threads.
final class ServerCore: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let logger: Logger
    /// Requests begun and not yet completed (event streams included).
    let inFlight = Atomic<Int>(0)
    /// Set once shutdown began: responses then carry `Connection: close`, new streams get 503.
    let stopping = Atomic<Bool>(false)
    private let streams = Mutex<[ObjectIdentifier: EventStream]>([:])
    /// The last message libmicrohttpd logged (for start failures).
    let lastLibraryMessage = Mutex<String>("")
    /// Open connections: request deadlines, and eviction of idle ones near the connection cap.
    let connections: ConnectionTable
    /// Notices clients that hang up on an event stream.
    let hangUps: HangUpWatcher?
    /// Drains the sockets of connections that refused a request body, so that their clients read the 413.
    let lingering: LingeringClose?

    init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger) {
        self.configuration = configuration
        self.handler = handler
        self.logger = logger
        connections = ConnectionTable(
            requestTimeout: configuration.requestTimeout, firstRequestTimeout: configuration.firstRequestTimeout,
            capacity: configuration.maxConnections, perNetwork: configuration.maxConnectionsPerNetwork)
        hangUps = HangUpWatcher()
        lingering = LingeringClose(
            byteLimit: configuration.maxDrainedBodyBytes, duration: .seconds(2), capacity: Self.lingeringCapacity)
    }

    /// The most sockets lingering after a refused body at once (each holds a descriptor, not a connection slot).
    static let lingeringCapacity = 256

    // MARK: - Connection lifecycle

    /// A connection opened: it owes its first request's header within the first-request timeout.
    func opened(_ context: ConnectionContext, socket: Int32) {
        context.socket = socket
        connections.opened(context, socket: socket)
    }

    /// Whether to accept a new connection from `address`: none once shutdown began, nor past its network's share
    /// (``HTTPServerConfiguration/maxConnectionsPerNetwork``). Near the connection cap the connection idle the
    /// longest makes room for it (``ConnectionTable/evictIdlest()``).
    func accepting(_ address: UnsafePointer<sockaddr>?) -> Bool {
        guard !stopping.load(ordering: .relaxed) else { return false }
        if let network = address.flatMap(PeerNetwork.init), !connections.admits(network) {
            logger.debug("refused a connection: its network holds its share of connections")
            return false
        }
        if connections.evictIdlest() {
            logger.debug("near the connection cap: closed the connection idle the longest")
        }
        return true
    }

    /// A connection is closing (its socket is still open, shut down for writing).
    func closed(_ context: ConnectionContext) {
        connections.closed(context)
        if context.lingers, context.socket >= 0, let lingering {
            // libmicrohttpd closes its descriptor next; this one keeps the socket open while the client's body drains.
            let socket = fcntl(context.socket, F_DUPFD_CLOEXEC, 0)
            if socket >= 0 { lingering.adopt(socket) }
        }
    }

    // MARK: - Request lifecycle

    /// First call for a request: headers are in. Checks limits and smuggling shapes.
    func begin(_ context: ConnectionContext, _ connection: OpaquePointer, method: String) -> MHD_Result {
        context.begin(method: method)
        connections.requestBegan(context)
        inFlight.add(1, ordering: .relaxed)
        if context.peer == nil {
            context.peer = PeerAddress.string(swy_connection_client_address(connection))
        }
        if context.rawTarget.utf8.count > configuration.maxURLBytes {
            return reject(
                context, connection, status: 414, title: "URI Too Long",
                detail: "The request target is longer than \(configuration.maxURLBytes) bytes.")
        }
        HeaderReader.read(connection, into: context)
        var lengths: [String] = []
        var encodings: [String] = []
        for field in context.headers {
            guard HTTPHeaders.isToken(field.name) else {
                // RFC 9112 §5.1: e.g. `Content-Length : 5` would otherwise be ignored and its body read
                // as the next request.
                return reject(
                    context, connection, status: 400, title: "Bad Request",
                    detail: "A header field name is empty or holds a space or another character not allowed there.")
            }
            if HTTPHeaders.equalNames(field.name, "Content-Length") {
                lengths.append(field.value)
            } else if HTTPHeaders.equalNames(field.name, "Transfer-Encoding") {
                encodings.append(field.value)
            }
        }
        if lengths.count > 1 {
            return reject(
                context, connection, status: 400, title: "Bad Request",
                detail: "The request has more than one Content-Length header.")
        }
        if !lengths.isEmpty && !encodings.isEmpty {
            return reject(
                context, connection, status: 400, title: "Bad Request",
                detail: "The request has both Content-Length and Transfer-Encoding.")
        }
        // Exactly `chunked`, as libmicrohttpd compares it: it reads any other value (`chunked `
        // included) as a body that ends only when the connection does.
        if !encodings.isEmpty && (encodings.count > 1 || encodings[0].lowercased() != "chunked") {
            return reject(
                context, connection, status: 400, title: "Bad Request",
                detail: "The only Transfer-Encoding accepted is chunked.")
        }
        if let declared = lengths.first {
            guard let length = Int(declared.trimmingASCIISpaces()), length >= 0 else {
                return reject(
                    context, connection, status: 400, title: "Bad Request",
                    detail: "The Content-Length is not a number.")
            }
            if length > configuration.maxBodyBytes {
                // Answered now, before any body is read: libmicrohttpd then sends no `100 Continue` (RFC 9110
                // §10.1.1), reads no body and closes the connection after the 413. A client that sends its body
                // without waiting still reads the 413: the socket lingers (``LingeringClose``).
                context.lingers = true
                return reject(
                    context, connection, status: 413, title: "Content Too Large",
                    detail: "The request body is larger than \(configuration.maxBodyBytes) bytes.")
            }
            context.body.reserveCapacity(length)
        }
        return .YES
    }

    /// Middle calls: one chunk of the body. Always consumed; counted against the cap.
    func receive(
        _ context: ConnectionContext, _ connection: OpaquePointer, _ data: UnsafeRawBufferPointer
    )
        -> MHD_Result
    {
        if context.body.count + data.count > configuration.maxBodyBytes {
            // A chunked body grew past the cap. libmicrohttpd 0.9.75 refuses a response in the middle of a body
            // (MHD_queue_response returns NO there), so the 413 is written to the socket directly and the
            // connection closed (NO), its socket lingering for the rest of the body.
            context.body = []
            context.lingers = true
            let refusal = HTTPResponse.problem(
                status: 413, title: "Content Too Large",
                detail: "The request body is larger than \(configuration.maxBodyBytes) bytes.")
            connections.answered(context)
            _ = ResponseWriter.writeDirectly(refusal, context: context)
            return .NO
        }
        context.body.append(contentsOf: data)
        return .YES
    }

    /// Last call: the whole request is in; run the handler and queue its response.
    func finish(_ context: ConnectionContext, _ connection: OpaquePointer) -> MHD_Result {
        if context.responded { return .YES }
        connections.answered(context)  // the request is in: the deadline never times the handler
        let parts = URLComponentsParser.split(target: context.rawTarget)
        let request = HTTPRequest(
            method: context.method, path: URLComponentsParser.decodePath(parts.rawPath), rawPath: parts.rawPath,
            query: URLComponentsParser.decodeQuery(parts.rawQuery), headers: context.headers, body: context.body,
            peer: context.peer ?? "unknown")
        context.body = []
        let response: HTTPResponse
        do {
            response = try handler.handle(request)
        } catch {
            logger.error(
                "handler failed",
                metadata: [
                    "method": "\(request.method)", "path": "\(redacted(context.rawTarget))", "error": "\(error)",
                ])
            response = .problem(
                status: 500, title: "Internal Server Error", detail: "The request could not be handled.")
        }
        return ResponseWriter.queue(response, context: context, connection: connection, core: self, close: false)
    }

    /// The request ended (sent, failed, timed out or shut down): log it and release its state.
    func complete(_ context: ConnectionContext, termination: MHD_RequestTerminationCode) {
        if let stream = context.stream {
            stream.connectionEnded()
            unregister(stream)
            context.bytes = stream.bytesSent
        }
        inFlight.subtract(1, ordering: .relaxed)
        logAccess(context, termination: termination)
        context.end()
        if termination == .REQUEST_TERMINATED_COMPLETED_OK {
            connections.awaiting(context)  // the next request on this connection
        }
    }

    /// Queues a transport error (problem+json) and closes the connection after it.
    func reject(
        _ context: ConnectionContext, _ connection: OpaquePointer, status: Int, title: String, detail: String
    )
        -> MHD_Result
    {
        let response = HTTPResponse.problem(status: status, title: title, detail: detail)
        connections.answered(context)
        return ResponseWriter.queue(response, context: context, connection: connection, core: self, close: true)
    }

    // MARK: - Streams

    /// Adds `stream` to the open streams unless the cap is reached or the server is stopping.
    func register(_ stream: EventStream) -> Bool {
        guard !stopping.load(ordering: .relaxed) else { return false }
        return streams.withLock { open in
            guard open.count < configuration.maxStreams else { return false }
            open[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    func unregister(_ stream: EventStream) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    var openStreams: [EventStream] {
        streams.withLock { Array($0.values) }
    }

    /// A new event stream for a response, with the configured backlog limit.
    func makeStream() -> EventStream {
        EventStream(backlogLimit: configuration.maxStreamBacklogBytes, watcher: hangUps)
    }

    /// Sends the heartbeat comment to every open stream (one frame, shared by all).
    func heartbeat() {
        let ping = EventFrame(comment: "ping")
        for stream in openStreams {
            stream.send(ping)
        }
    }

    /// Closes every open stream (their queued events are still written).
    func closeAllStreams() {
        for stream in openStreams {
            stream.close()
        }
    }

    /// Ends every open stream at once, dropping what its client has not read yet.
    func abortAllStreams() {
        for stream in openStreams {
            stream.abortConnection()
        }
    }

    // MARK: - Logging

    func redacted(_ target: String) -> String {
        configuration.redactPath(target)
    }

    private func logAccess(_ context: ConnectionContext, termination: MHD_RequestTerminationCode) {
        guard logger.logLevel <= .info else { return }
        let duration = ContinuousClock.now - context.startedAt
        logger.info(
            "\(context.method) \(redacted(context.rawTarget)) \(context.status) \(context.bytes)B \(Self.milliseconds(duration))ms",
            metadata: termination == .REQUEST_TERMINATED_COMPLETED_OK
                ? ["peer": "\(context.peer ?? "unknown")"]
                : ["peer": "\(context.peer ?? "unknown")", "ended": "\(Self.name(termination))"])
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let whole = micros / 1000
        let fraction = micros % 1000
        return "\(whole)." + String(repeating: "0", count: 3 - String(fraction).count) + "\(fraction)"
    }

    private static func name(_ termination: MHD_RequestTerminationCode) -> String {
        switch termination {
        case .REQUEST_TERMINATED_COMPLETED_OK: "ok"
        case .REQUEST_TERMINATED_WITH_ERROR: "error"
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "shutdown"
        case .REQUEST_TERMINATED_READ_ERROR: "read-error"
        case .REQUEST_TERMINATED_CLIENT_ABORT: "client-abort"
        default: "unknown"
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
