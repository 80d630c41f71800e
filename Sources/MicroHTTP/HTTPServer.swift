internal import CMicroHTTPD
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An HTTP/1.1 server on GNU libmicrohttpd; the only part of the product that touches C pointers.
///
/// ## Design
/// - **Threads.** libmicrohttpd polls with epoll on an internal pool of
///   ``HTTPServerConfiguration/threads`` workers; the application's ``HTTPHandler`` runs on those
///   workers, concurrently for different connections. Every response keeps the connection alive
///   (unless the client asked otherwise or the transport refused the request).
/// - **Requests.** Bodies stream in chunk by chunk and are capped
///   (``HTTPServerConfiguration/maxBodyBytes``: a declared `Content-Length` over the cap gets 413
///   before any body is read, and no `100 Continue`; a chunked body is counted and answered 413 as soon as
///   it passes the cap). The connection then closes, its socket kept open a moment to read and drop what
///   the client still sends, so that the client reads the 413 rather than a reset. Targets over
///   ``HTTPServerConfiguration/maxURLBytes`` get 414. Request-smuggling shapes (two
///   `Content-Length`s, `Content-Length` with `Transfer-Encoding`, a `Transfer-Encoding` other than
///   `chunked`) get 400 and the connection is closed. Transport errors are
///   `application/problem+json`; a handler that throws yields a 500 problem, never a crash.
/// - **Connections.** Total and per-IP connection caps and an inactivity timeout come from the
///   configuration; one client holding many connections cannot starve others. A new connection must send its
///   first request's header within ``HTTPServerConfiguration/firstRequestTimeout``, and every request must be
///   in within ``HTTPServerConfiguration/requestTimeout``. From 90 % of
///   ``HTTPServerConfiguration/maxConnections`` on, each new connection evicts the one idle the longest (no
///   request in progress, no event stream), so that idle connections cannot fill the cap and keep new clients
///   out.
/// - **Event streams.** A ``HTTPResponse/Body/stream(_:)`` response is a chunked
///   `text/event-stream` fed by an ``EventStream``. An idle stream parks (suspends) its connection,
///   so thousands of streams cost no threads; `send` resumes it from any thread. A heartbeat comment
///   (`: ping`) every ``HTTPServerConfiguration/heartbeatInterval`` keeps streams alive. Each stream's
///   socket is watched (epoll, `EPOLLRDHUP`): a client that closes the stream (FIN or reset) ends it at once,
///   idle or busy, freeing its connection and per-address slot. Streams over
///   ``HTTPServerConfiguration/maxStreams`` get 503.
/// - **Shutdown.** ``stop()`` stops accepting (new connections are closed at once), closes event streams, lets
///   in-flight requests finish within ``HTTPServerConfiguration/shutdownGrace``, then stops the
///   daemon. ``waitForTermination()`` does the same on SIGTERM/SIGINT.
/// - **Logging.** One access-log line per request (method, redacted target, status, bytes,
///   duration) at `info` level through swift-log.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(), handler: MyHandler(), logger: logger)
/// try server.start()
/// server.waitForTermination()
/// ```
public final class HTTPServer: Sendable {
    private enum Phase {
        case idle
        case running
        case stopping
        case stopped
    }

    private struct State {
        var phase = Phase.idle
        var port: UInt16 = 0
        /// The MHD daemon while running.
        var daemon: OpaquePointer?
        var timers: [any DispatchSourceTimer] = []
        var waiters: [TerminationSignal] = []
        /// Whether the stop finished cleanly (libmicrohttpd's threads ended in time).
        var stoppedCleanly = true
    }

    private let core: ServerCore
    private let state = Mutex(State())
    /// Signalled once the server has fully stopped.
    private let stopped = DispatchSemaphore(value: 0)

    /// Creates a server; nothing listens until ``start()``.
    public init(configuration: HTTPServerConfiguration, handler: some HTTPHandler, logger: Logger) {
        core = ServerCore(configuration: configuration, handler: handler, logger: logger)
    }

    /// A server dropped while running is stopped (gracefully) first.
    deinit {
        stop()
    }

    /// Binds the configured address and starts serving on background threads.
    ///
    /// Throws ``HTTPServerError/bindFailed(host:port:reason:)`` when the address cannot be bound
    /// (e.g. the port is in use) and ``HTTPServerError/alreadyStarted`` on a second call.
    public func start() throws {
        try state.withLock { state in
            guard state.phase == .idle else { throw HTTPServerError.alreadyStarted }
            let configuration = core.configuration
            let fd = try ListenSocket.open(host: configuration.host, port: configuration.port)
            let retained = Unmanaged.passRetained(core)
            guard let daemon = MHDBridge.start(core: retained, listenSocket: fd) else {
                retained.release()
                close(fd)
                let reason = core.lastLibraryMessage.withLock { $0 }
                throw HTTPServerError.startFailed(reason: reason.isEmpty ? "unknown error" : reason)
            }
            let bound = swy_daemon_bind_port(daemon)
            state.port = bound != 0 ? bound : ListenSocket.boundPort(fd)
            state.daemon = daemon
            state.phase = .running
            state.timers = makeTimers()
            core.logger.info("listening on http://\(configuration.host):\(state.port)")
        }
    }

    /// The bound port (useful with port 0); 0 before ``start()``.
    public var port: UInt16 {
        state.withLock { $0.port }
    }

    /// The connections open now (for metrics and tests): accepted by libmicrohttpd and not yet closed, event
    /// streams included; a connection shut down by a deadline or an eviction counts until it is closed.
    public var openConnections: Int {
        core.connections.count
    }

    /// Stops gracefully: stop accepting, end event streams, let in-flight requests finish (at most
    /// ``HTTPServerConfiguration/shutdownGrace``), then stop the daemon. Idempotent; a concurrent
    /// call returns once the server has stopped. Blocks the caller: never call it from a handler
    /// (a worker thread cannot wait for itself to finish).
    ///
    /// The wait is bounded: if libmicrohttpd's threads have not ended
    /// ``HTTPServerConfiguration/shutdownForceAfter`` after the grace period (a handler that never
    /// returns), the server is abandoned, an error is logged and the call returns false.
    /// - Returns: whether the server stopped cleanly.
    @discardableResult
    public func stop() -> Bool {
        enum Action {
            case none(Bool)
            case wait
            case stop(OpaquePointer, [any DispatchSourceTimer], [TerminationSignal])
        }
        let action = state.withLock { state -> Action in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                let waiters = state.waiters
                state.waiters = []
                waiters.forEach { $0.wake() }
                core.hangUps?.stop()  // never started: no stream was ever watched
                core.lingering?.stop()
                return .none(true)
            case .stopped: return .none(state.stoppedCleanly)
            case .stopping: return .wait
            case .running:
                state.phase = .stopping
                let waiters = state.waiters
                state.waiters = []
                guard let daemon = state.daemon else { return .none(true) }
                return .stop(daemon, state.timers, waiters)
            }
        }
        switch action {
        case .none(let clean):
            return clean
        case .wait:
            stopped.wait()
            stopped.signal()
            return state.withLock { $0.stoppedCleanly }
        case .stop(let daemon, let timers, let waiters):
            waiters.forEach { $0.wake() }
            timers.forEach { $0.cancel() }
            let clean = shutDown(daemon)
            state.withLock { state in
                state.phase = .stopped
                state.daemon = nil
                state.timers = []
                state.stoppedCleanly = clean
            }
            stopped.signal()
            return clean
        }
    }

    /// Blocks the calling thread until SIGTERM or SIGINT arrives (or ``stop()`` is called), then
    /// stops gracefully and returns, so that the process can exit.
    /// - Returns: whether the server stopped cleanly (see ``stop()``); exit non-zero when not.
    @discardableResult
    public func waitForTermination() -> Bool {
        guard let termination = TerminationSignal() else {
            core.logger.error("cannot wait for signals (no file descriptors left); stopping")
            return stop()
        }
        let registered = state.withLock { state -> Bool in
            guard state.phase == .running || state.phase == .idle else { return false }
            state.waiters.append(termination)
            return true
        }
        guard registered else { return stop() }
        termination.install()
        signalHandlersInstalled.store(true, ordering: .sequentiallyConsistent)
        termination.wait()
        core.logger.info("shutting down")
        let clean = stop()
        termination.uninstall()
        return clean
    }

    /// Set once ``waitForTermination()`` listens for signals (tests raise a signal only after this).
    let signalHandlersInstalled = Atomic<Bool>(false)

    // MARK: - Private

    /// The heartbeat of event streams and the sweep of overdue requests.
    private func makeTimers() -> [any DispatchSourceTimer] {
        let queue = DispatchQueue(label: "MicroHTTP.timers")
        var timers: [any DispatchSourceTimer] = []
        let heartbeat = core.configuration.heartbeatInterval
        if heartbeat > .zero {
            timers.append(Self.timer(every: heartbeat, on: queue) { [core] in core.heartbeat() })
        }
        let timeouts = [core.configuration.requestTimeout, core.configuration.firstRequestTimeout].filter { $0 > .zero }
        if let shortest = timeouts.min() {
            let interval = min(.seconds(1), shortest / 4)
            timers.append(Self.timer(every: interval, on: queue) { [core] in core.connections.sweep() })
        }
        return timers
    }

    private static func timer(
        every interval: Duration, on queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void
    ) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval.dispatchInterval, repeating: interval.dispatchInterval)
        timer.setEventHandler(handler: handler)
        timer.resume()
        return timer
    }

    /// Returns false when libmicrohttpd's threads did not end in time and the daemon was abandoned.
    private func shutDown(_ daemon: OpaquePointer) -> Bool {
        // From here the accept policy refuses new connections and responses carry
        // `Connection: close`. (Not MHD_quiesce_daemon: see shim.h.)
        core.stopping.store(true, ordering: .sequentiallyConsistent)
        core.closeAllStreams()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + core.configuration.shutdownGrace
        // Streams get a moment to write what they have queued; a client that does not read it cannot hold
        // the shutdown for the whole grace period.
        let streamDeadline = start + min(core.configuration.shutdownGrace, .seconds(1))
        var streamsAborted = false
        while core.inFlight.load(ordering: .sequentiallyConsistent) > 0 && clock.now < deadline {
            if !streamsAborted && clock.now >= streamDeadline {
                core.abortAllStreams()
                streamsAborted = true
            }
            // Streams opened while we were closing the others are closed on the next round.
            core.closeAllStreams()
            usleep(5_000)
        }
        let left = core.inFlight.load(ordering: .sequentiallyConsistent)
        if left > 0 {
            core.logger.warning("shutdown grace period over with \(left) request(s) in flight")
        }
        // Every suspended connection must be resumed before MHD_stop_daemon: ending a stream resumes it.
        // Give MHD's threads a moment to pick the resumed connections up.
        core.abortAllStreams()
        let drainDeadline = clock.now + .seconds(1)
        while !core.openStreams.isEmpty && clock.now < drainDeadline { usleep(2_000) }
        // MHD_stop_daemon joins the worker threads: bounded, so that a handler that never returns
        // cannot keep the process from exiting.
        let daemonStopped = DispatchSemaphore(value: 0)
        let address = UInt(bitPattern: daemon)
        DispatchQueue(label: "MicroHTTP.stop").async {
            if let daemon = OpaquePointer(bitPattern: address) { MHD_stop_daemon(daemon) }
            daemonStopped.signal()
        }
        let force = core.configuration.shutdownForceAfter
        guard daemonStopped.wait(timeout: .now() + force.dispatchInterval) == .success else {
            core.logger.error(
                "libmicrohttpd's threads did not end \(force) after the grace period; abandoning the server")
            return false
        }
        core.hangUps?.stop()
        core.lingering?.stop()
        Unmanaged.passUnretained(core).release()
        core.logger.info("stopped")
        return true
    }
}

extension Duration {
    /// The duration for Dispatch's timers and waits, in whole nanoseconds.
    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000))
    }
}
