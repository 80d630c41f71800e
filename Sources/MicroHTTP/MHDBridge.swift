internal import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts the daemon with C callbacks. Each callback is a closure that captures nothing and is
/// not actor-isolated (MHD calls from its own threads); it only recovers the Swift objects from
/// the `cls`, socket-context and request-context pointers and forwards to ``ServerCore``.
enum MHDBridge {
    static func start(core: Unmanaged<ServerCore>, listenSocket: Int32) -> OpaquePointer? {
        let configuration = core.takeUnretainedValue().configuration
        let flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        let memoryLimit = max(32 * 1024, configuration.maxURLBytes + 24 * 1024)
        return swy_start_daemon(
            UInt32(flags), listenSocket, UInt32(clamping: configuration.threads),
            UInt32(clamping: configuration.maxConnections), UInt32(clamping: configuration.maxConnectionsPerIP),
            configuration.idleTimeoutSeconds, memoryLimit,
            { cls, connection, _, method, _, uploadData, uploadDataSize, requestContext in
                guard let cls, let connection, let uploadDataSize, let requestContext else { return .NO }
                return MHDBridge.access(
                    cls, connection, method, uploadData, uploadDataSize, requestContext)
            },
            core.toOpaque(),
            { cls, _, requestContext, termination in
                guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
                requestContext.pointee = nil
                let context = Unmanaged<ConnectionContext>.fromOpaque(pointer).takeUnretainedValue()
                Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().complete(context, termination: termination)
            },
            { cls, connection, socketContext, event in
                guard let cls, let socketContext else { return }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                if event == .CONNECTION_NOTIFY_STARTED {
                    let context = ConnectionContext()
                    socketContext.pointee = Unmanaged.passRetained(context).toOpaque()
                    core.opened(context, socket: connection.map { swy_connection_fd($0) } ?? -1)
                } else if event == .CONNECTION_NOTIFY_CLOSED, let pointer = socketContext.pointee {
                    socketContext.pointee = nil
                    let context = Unmanaged<ConnectionContext>.fromOpaque(pointer)
                    core.closed(context.takeUnretainedValue())
                    context.release()
                }
            },
            { _, uri, connection in
                guard let uri, let connection, let pointer = swy_connection_socket_context(connection) else {
                    return nil
                }
                Unmanaged<ConnectionContext>.fromOpaque(pointer).takeUnretainedValue().rawTarget = String(cString: uri)
                MHDBridge.hideQuery(uri)
                return nil
            },
            { cls, format, arguments in
                guard let cls, let format, let arguments else { return }
                var buffer = [CChar](repeating: 0, count: 512)
                _ = vsnprintf(&buffer, buffer.count, format, arguments)
                var message = CText.string(buffer)
                while message.last?.isNewline == true { message.removeLast() }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                core.lastLibraryMessage.withLock { $0 = message }
                core.logger.debug("libmicrohttpd: \(message)")
            },
            { cls, address, _ in
                // Refuses new connections once shutdown began (instead of MHD_quiesce_daemon), and past their
                // network's share; near the cap, makes room for them.
                guard let cls else { return .NO }
                return Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().accepting(address) ? .YES : .NO
            })
    }

    /// Makes libmicrohttpd see an empty query string (`/p?` instead of `/p?a=1&b=2`).
    ///
    /// MicroHTTP parses the query itself from the target copied just before. libmicrohttpd 0.9.75
    /// stores every query argument in the connection's small memory pool; a few hundred arguments
    /// filled it and the request then got no answer at all. This callback runs after libmicrohttpd
    /// found the `?` and before it parses what follows, in its own writable read buffer, which it
    /// modifies in the same way itself (it writes a NUL over the `?`).
    private static func hideQuery(_ uri: UnsafePointer<CChar>) {
        guard let mark = strchr(uri, Int32(UInt8(ascii: "?"))) else { return }
        UnsafeMutablePointer(mutating: mark + 1).pointee = 0
    }

    /// The access handler: first call (headers) → ``ServerCore/begin``; calls with upload data →
    /// ``ServerCore/receive``; last call (no upload data) → ``ServerCore/finish``.
    private static func access(
        _ cls: UnsafeMutableRawPointer, _ connection: OpaquePointer, _ method: UnsafePointer<CChar>?,
        _ uploadData: UnsafePointer<CChar>?, _ uploadDataSize: UnsafeMutablePointer<Int>,
        _ requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
        guard let pointer = requestContext.pointee else {
            // First call: answer nothing yet (answering now would force `Connection: close`).
            guard let socketContext = swy_connection_socket_context(connection) else { return .NO }
            requestContext.pointee = socketContext
            let context = Unmanaged<ConnectionContext>.fromOpaque(socketContext).takeUnretainedValue()
            return core.begin(context, connection, method: method.map { String(cString: $0) } ?? "GET")
        }
        let context = Unmanaged<ConnectionContext>.fromOpaque(pointer).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0  // always consume, or MHD aborts once its buffer fills
            guard let uploadData else { return .YES }
            return core.receive(context, connection, UnsafeRawBufferPointer(start: uploadData, count: size))
        }
        return core.finish(context, connection)
    }
}
