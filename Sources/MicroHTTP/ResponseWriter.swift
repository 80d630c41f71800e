internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns an ``HTTPResponse`` into a libmicrohttpd response and queues it on a connection.
enum ResponseWriter {
    /// Block size MHD asks event-stream readers to fill.
    static let streamBlockSize = 16 * 1024

    /// Queues `response`; the caller has told the connection table that the request is answered (its deadline
    /// stops), once: the table's lock is shared by every worker thread.
    static func queue(
        _ response: HTTPResponse, context: ConnectionContext, connection: OpaquePointer, core: ServerCore,
        close: Bool
    ) -> MHD_Result {
        var response = response
        if !(100...599).contains(response.status) {
            core.logger.error("handler returned an invalid status", metadata: ["status": "\(response.status)"])
            response = .problem(
                status: 500, title: "Internal Server Error", detail: "The handler returned an invalid status.")
        }
        switch response.body {
        case .bytes(let bytes):
            return queueBytes(response, bytes, context, connection, close || core.stopping.load(ordering: .relaxed))
        case .stream(let start):
            return queueStream(response, start, context, connection, core)
        }
    }

    /// Writes a transport error straight to the connection's socket, with `Connection: close`, for a request that
    /// libmicrohttpd no longer lets the server answer: 0.9.75 refuses `MHD_queue_response` while a body is being
    /// received. The caller then returns NO, and libmicrohttpd shuts the socket down for writing and closes it, after
    /// what was written. Nothing else is written on the connection meanwhile: no response has begun (the request's
    /// `100 Continue`, if any, went out before its body was read), and libmicrohttpd calls from this thread.
    /// Returns false when the socket did not take the whole response at once (the connection is then closed
    /// without an answer, as before).
    static func writeDirectly(_ response: HTTPResponse, context: ConnectionContext) -> Bool {
        guard case .bytes(let body) = response.body, context.socket >= 0 else { return false }
        var head = "HTTP/1.1 \(response.status) " + String(cString: MHD_get_reason_phrase_for(UInt32(response.status)))
        head += "\r\nDate: " + httpDate() + "\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + body
        let sent = bytes.withUnsafeBytes { send(context.socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { return false }
        context.responded = true
        context.status = response.status
        context.bytes = body.count
        return true
    }

    /// The current time as an HTTP date (RFC 9110 §5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`; English names
    /// whatever the locale.
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        guard gmtime_r(&now, &parts) != nil else { return "" }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    private static func queueBytes(
        _ response: HTTPResponse, _ bytes: [UInt8], _ context: ConnectionContext, _ connection: OpaquePointer,
        _ close: Bool
    ) -> MHD_Result {
        guard let made = makeResponse(sending: bytes) else { return .NO }
        addHeaders(response.headers, to: made, close: close)
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        if result == .YES {
            context.responded = true
            context.status = response.status
            context.bytes = bytes.count
        }
        return result
    }

    /// A response whose body libmicrohttpd sends from the bytes' own storage, not a copy (the answer is written
    /// once, by the JSON writer): the array is kept alive and unchanged until libmicrohttpd lets the response go.
    private static func makeResponse(sending bytes: [UInt8]) -> OpaquePointer? {
        guard !bytes.isEmpty else { return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }
        let body = SentBody(bytes)
        let owner = Unmanaged.passRetained(body).toOpaque()
        // The storage's address outlives this closure: `body` holds the array, immutable, until the callback.
        let made = body.bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer_with_free_callback_cls(
                raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                { owner in owner.map { Unmanaged<SentBody>.fromOpaque($0).release() } }, owner)
        }
        if made == nil { Unmanaged<SentBody>.fromOpaque(owner).release() }
        return made
    }

    private static func queueStream(
        _ response: HTTPResponse, _ start: @escaping EventStream.Start, _ context: ConnectionContext,
        _ connection: OpaquePointer, _ core: ServerCore
    ) -> MHD_Result {
        let stream = core.makeStream()
        guard core.register(stream) else {
            let busy = HTTPResponse.problem(
                status: 503, title: "Service Unavailable",
                detail: core.stopping.load(ordering: .relaxed)
                    ? "The server is shutting down." : "Too many event streams are open; try again later.")
            return queue(busy, context: context, connection: connection, core: core, close: false)
        }
        // The response keeps the stream alive until MHD frees the response.
        let retained = Unmanaged.passRetained(stream).toOpaque()
        let made = MHD_create_response_from_callback(
            UInt64.max, streamBlockSize,
            { cls, _, buffer, max in
                guard let cls, let buffer else { return -1 }
                return Unmanaged<EventStream>.fromOpaque(cls).takeUnretainedValue().read(into: buffer, max: max)
            }, retained,
            { cls in
                guard let cls else { return }
                Unmanaged<EventStream>.fromOpaque(cls).release()
            })
        guard let made else {
            Unmanaged<EventStream>.fromOpaque(retained).release()
            core.unregister(stream)
            return .NO
        }
        addHeaders(response.headers, to: made, close: false)
        stream.attach(connection: connection, socket: context.socket)
        context.stream = stream
        context.responded = true
        context.status = response.status
        let result = MHD_queue_response(connection, UInt32(response.status), made)
        MHD_destroy_response(made)
        guard result == .YES else {
            stream.close()
            return result
        }
        start(stream)
        return result
    }

    private static func addHeaders(_ headers: [(String, String)], to response: OpaquePointer, close: Bool) {
        for (name, value) in headers {
            // MHD refuses names/values with CR/LF and the headers it manages itself.
            _ = MHD_add_response_header(response, name, value)
        }
        if close {
            _ = MHD_add_response_header(response, "Connection", "close")
        }
    }
}

/// A response body held for libmicrohttpd while it sends it (``ResponseWriter``).
private final class SentBody {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
