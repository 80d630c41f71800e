internal import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open Server-Sent Events response; thread-safe.
///
/// The server creates it for a ``HTTPResponse/Body/stream(_:)`` response and hands it to the
/// application's ``Start`` closure. Events queue in memory and are written when the connection
/// can take them; an idle stream parks its connection (no thread is held per stream). A client that
/// went away is noticed at once, idle or busy: the server watches each stream's socket for a hang-up (FIN or
/// reset) and then ends the stream and closes its connection.
///
/// ``send(_:)``, ``close()`` and ``onClose(_:)`` never run application code: the ``onClose(_:)``
/// callbacks run on a server thread once the connection has ended, with none of the caller's locks
/// held. An application may therefore send while holding a lock that its own close callback takes.
public final class EventStream: Sendable {
    /// Called once the stream is open; the application keeps the stream to send to it later.
    public typealias Start = @Sendable (EventStream) -> Void

    /// What a queued frame is charged against ``backlogLimit`` on top of its bytes (its array's
    /// header and queue slot), so many tiny frames cannot hold much more memory than the cap.
    static let queuedFrameCost = 64

    /// A queued frame: its bytes, shared with the sender (never copied), and whether a newer snapshot replaces it
    /// (a snapshot or a delta).
    private struct Queued {
        var bytes: [UInt8]
        let replaceable: Bool
    }

    private struct State {
        /// Queued frames; those before `head` are written.
        var queue: [Queued] = []
        var head = 0
        /// Bytes of `queue[head]` already written.
        var readOffset = 0
        /// Bytes queued and not yet written.
        var queuedBytes = 0
        var closed = false
        /// Ended with an error (backlog overflow, hang-up, shutdown): the connection is closed, not drained.
        var aborted = false
        var suspended = false
        /// The MHD connection's address (an integer keeps the state Sendable for `Mutex`); nil
        /// before it is known and after the request ended.
        var connection: UInt?
        /// The connection's socket while `connection` is set (-1 otherwise).
        var socket: Int32 = -1
        /// Whether ``watcher`` watches the connection's socket (from ``attach(connection:socket:)`` until the request
        /// ends).
        var watched = false
        var closeCallbacks: [@Sendable () -> Void] = []
        var closeFired = false
        var bytesSent = 0
    }

    private let state = Mutex(State())
    /// Bytes queued for a client that does not read; past this the stream is closed and its connection aborted.
    let backlogLimit: Int
    /// Watches the stream's socket, so that a client's hang-up ends the stream at once.
    let watcher: (any HangUpWatching)?

    /// Bytes queued from which a new snapshot replaces the queued ones: a client that keeps up gets every state,
    /// one that falls behind gets the latest instead of a growing backlog.
    let coalescingThreshold: Int

    /// A stream closed past `backlogLimit` queued bytes, whose snapshots replace each other from
    /// `coalescingThreshold` queued bytes (default: a quarter of the limit, at most 256 KiB).
    init(backlogLimit: Int = 4 << 20, coalescingThreshold: Int? = nil, watcher: (any HangUpWatching)? = nil) {
        self.backlogLimit = backlogLimit
        self.coalescingThreshold = coalescingThreshold ?? min(256 << 10, backlogLimit / 4)
        self.watcher = watcher
    }

    /// Queues one event: `id:` and `event:` lines when given, then `data:` (one line per line of `data`).
    ///
    /// Encodes the event for this stream alone; to send the same event to many streams, encode it
    /// once as an ``EventFrame`` and use ``send(_:)``. Returns false once the stream is closed
    /// (client gone, ``close()``, or server shutdown). May be called from any thread.
    @discardableResult
    public func send(id: String?, event: String?, data: String) -> Bool {
        send(EventFrame(id: id, event: event, data: data))
    }

    /// Queues one pre-encoded event.
    ///
    /// The frame's bytes are shared with the caller and every other stream it is sent to, not
    /// copied, so a broadcast encodes its event once and costs each stream only a queue append.
    /// Returns false once the stream is closed (client gone, ``close()``, or server shutdown).
    /// May be called from any thread.
    @discardableResult
    public func send(_ frame: EventFrame) -> Bool {
        state.withLock { state in
            enqueue(frame.bytes, role: frame.role, &state)
        }
    }

    /// Queues `delta` (a change to the state sent before it), or `snapshot` (the whole new state) instead when the
    /// client has fallen behind: the snapshot then replaces every unsent snapshot and delta, so that a slow client
    /// gets the latest state rather than a growing backlog of changes. `snapshot` is made only then. Returns false once
    /// the stream is closed.
    @discardableResult
    public func send(_ delta: EventFrame, orWhenBehind snapshot: @autoclosure () -> EventFrame) -> Bool {
        state.withLock { state in
            if state.queuedBytes >= coalescingThreshold {
                return enqueue(snapshot().bytes, role: .snapshot, &state)
            }
            return enqueue(delta.bytes, role: .delta, &state)
        }
    }

    /// Queues an SSE comment line (`: text`), which clients ignore; used for heartbeats.
    @discardableResult
    public func comment(_ text: String) -> Bool {
        state.withLock { state in
            enqueue(EventFrame(comment: text).bytes, role: .event, &state)
        }
    }

    /// Ends the stream: queued events are still written, then the response ends. Idempotent.
    ///
    /// The ``onClose(_:)`` callbacks run later, on a server thread, once the response has ended.
    public func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            wakeIfSuspended(&state)
        }
    }

    /// Whether the stream is closed; ``send(id:event:data:)`` then returns false.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// Registers `callback`, called exactly once when the stream's response has ended for any reason
    /// (client disconnect, ``close()``, backlog overflow, server shutdown).
    ///
    /// The callback runs on a server thread after the connection ended, never inside ``send(_:)`` or
    /// ``close()``; if the response has already ended it runs at once, on the calling thread.
    public func onClose(_ callback: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.closeFired { return true }
            state.closeCallbacks.append(callback)
            return false
        }
        if runNow { callback() }
    }

    /// Bytes written to the connection so far.
    var bytesSent: Int {
        state.withLock { $0.bytesSent }
    }

    // MARK: - Called by the server (MHD threads)

    /// Binds the stream to its connection and that connection's socket (before the response is queued), and has
    /// the socket watched for a hang-up.
    func attach(connection: OpaquePointer, socket: Int32) {
        let address = UInt(bitPattern: connection)
        state.withLock { state in
            state.connection = address
            state.socket = socket
            if let watcher, socket >= 0 {
                state.watched = true
                watcher.watch(self, socket: socket)
            }
        }
    }

    /// The request ended (response done, client gone or daemon shutdown): forget the connection.
    func connectionEnded() {
        let callbacks = state.withLock { state -> [@Sendable () -> Void] in
            if state.watched { watcher?.ended(self) }
            state.watched = false
            state.connection = nil
            state.socket = -1
            state.suspended = false
            state.closed = true
            return takeCallbacks(&state)
        }
        callbacks.forEach { $0() }
    }

    /// MHD's content reader: copies queued bytes, ends the stream once closed and drained, or
    /// parks the connection (suspend) until more is queued. An aborted stream ends with an error, and its connection
    /// is closed and freed at once (see ``endWithError(connection:)``).
    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        state.withLock { state -> Int in
            if state.aborted { return endWithError(connection: state.connection) }
            if state.queuedBytes > 0 {
                let count = Self.copyQueued(&state, into: UnsafeMutableRawPointer(buffer), max: max)
                state.bytesSent += count
                return count
            }
            if state.closed { return -1 }  // MHD_CONTENT_READER_END_OF_STREAM
            guard let address = state.connection, let connection = OpaquePointer(bitPattern: address) else {
                return -1
            }
            // Park the connection; `enqueue`/`close` resume it under the same lock, so a wake-up
            // can never come before the suspend.
            state.suspended = true
            MHD_suspend_connection(connection)
            return 0
        }
    }

    // MARK: - Private

    /// Ends an aborted stream from the content reader: returns MHD_CONTENT_READER_END_WITH_ERROR (close, do not
    /// drain), after parking the connection and waking it again at once.
    ///
    /// libmicrohttpd 0.9.75 closes a connection whose reader reports an error (the request's completion is notified
    /// at once) but does not free it in the same round: `MHD_connection_handle_idle` leaves its loop after the failed
    /// `try_ready_chunked_body` (or `try_ready_normal_body`) instead of reaching the closed state's clean-up, and drops
    /// the connection from its ready list. Nothing visits it again unless its socket reports an epoll event, and it
    /// is not even in libmicrohttpd's epoll set when it was woken from a park or has not blocked writing since (its
    /// socket's end then reported nothing at all): the connection, its descriptor and its per-address slot stayed
    /// until the worker's next wake-up, at worst the idle timeout. A connection woken from a park is always in the
    /// next round's ready list, and a closed connection found there is freed; parking it first changes nothing else
    /// (it is closed in this round all the same).
    private func endWithError(connection address: UInt?) -> Int {
        if let address, let connection = OpaquePointer(bitPattern: address) {
            MHD_suspend_connection(connection)
            MHD_resume_connection(connection)
        }
        return -2  // MHD_CONTENT_READER_END_WITH_ERROR
    }

    /// Queues `bytes`; over the backlog limit the stream closes and its connection is aborted (the
    /// queue is dropped at once). Runs no callback.
    private func enqueue(_ bytes: [UInt8], role: EventFrame.Role, _ state: inout State) -> Bool {
        guard !state.closed else { return false }
        guard !bytes.isEmpty else { return true }
        if role == .snapshot, state.queuedBytes >= coalescingThreshold { Self.dropUnstartedStates(&state) }
        let frames = state.queue.count - state.head + 1
        if state.queuedBytes + bytes.count + frames * Self.queuedFrameCost > backlogLimit {
            abort(&state)
            return false
        }
        state.queue.append(Queued(bytes: bytes, replaceable: role != .event))
        state.queuedBytes += bytes.count
        wakeIfSuspended(&state)
        return true
    }

    /// Ends the stream now, dropping what is still queued (shutdown, after its grace to drain).
    func abortConnection() {
        state.withLock { abort(&$0) }
    }

    /// The client hung up (FIN or reset): end the stream now, parked or busy. There is nobody to drain to, and a
    /// connection blocked writing to a client that reads no more would otherwise wait for the idle timeout.
    func clientHungUp() {
        state.withLock { state in
            guard state.connection != nil, !state.aborted else { return }
            abort(&state)
        }
    }

    /// Ends the stream with an error and drops its queue: a parked connection is woken, and the socket is shut
    /// down so that a connection blocked on a client that reads nothing ends too (libmicrohttpd sees the end and
    /// closes it); one that libmicrohttpd asks for more data first is closed by the reader's error
    /// (``endWithError(connection:)``). The socket is still the connection's: it is closed only after ``connectionEnded()``,
    /// which takes this lock.
    private func abort(_ state: inout State) {
        state.queue = []
        state.head = 0
        state.readOffset = 0
        state.queuedBytes = 0
        state.aborted = true
        state.closed = true
        wakeIfSuspended(&state)
        if state.socket >= 0 { _ = shutdown(state.socket, Int32(SHUT_RDWR)) }
    }

    /// Removes the queued snapshots and deltas the client has not begun to receive (a new snapshot replaces them).
    private static func dropUnstartedStates(_ state: inout State) {
        let firstUnstarted = state.head + (state.readOffset > 0 ? 1 : 0)
        guard state.queue[firstUnstarted...].contains(where: \.replaceable) else { return }
        var kept: [Queued] = []
        kept.reserveCapacity(state.queue.count - state.head)
        for index in state.head..<state.queue.count {
            let frame = state.queue[index]
            if index >= firstUnstarted && frame.replaceable {
                state.queuedBytes -= frame.bytes.count
            } else {
                kept.append(frame)
            }
        }
        state.queue = kept
        state.head = 0
    }

    /// Moves up to `max` queued bytes into `buffer`, across frames; returns the count.
    private static func copyQueued(_ state: inout State, into buffer: UnsafeMutableRawPointer, max: Int) -> Int {
        var copied = 0
        while copied < max, state.head < state.queue.count {
            let offset = state.readOffset
            let taken = state.queue[state.head].bytes.withUnsafeBytes { frame in
                let count = min(frame.count - offset, max - copied)
                if let base = frame.baseAddress {
                    (buffer + copied).copyMemory(from: base + offset, byteCount: count)
                }
                return (count: count, finished: offset + count == frame.count)
            }
            copied += taken.count
            if taken.finished {
                state.queue[state.head].bytes = []  // release the frame
                state.head += 1
                state.readOffset = 0
            } else {
                state.readOffset += taken.count
            }
        }
        state.queuedBytes -= copied
        if state.head == state.queue.count {
            state.queue.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= 256 {
            state.queue.removeFirst(state.head)  // a busy stream never drains fully
            state.head = 0
        }
        return copied
    }

    private func wakeIfSuspended(_ state: inout State) {
        if state.suspended, let address = state.connection, let connection = OpaquePointer(bitPattern: address) {
            state.suspended = false
            MHD_resume_connection(connection)
        }
    }

    private func takeCallbacks(_ state: inout State) -> [@Sendable () -> Void] {
        guard !state.closeFired else { return [] }
        state.closeFired = true
        let callbacks = state.closeCallbacks
        state.closeCallbacks = []
        return callbacks
    }
}
