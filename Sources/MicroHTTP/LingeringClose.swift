internal import CMicroHTTPD
import Dispatch
import Synchronization

#if os(Linux)
    import Glibc

    /// Keeps the socket of a connection that refused its request body open for a moment after libmicrohttpd let
    /// it go, reading and dropping what the client still sends (a "lingering close", as nginx and Apache do).
    ///
    /// A client that sends its body without waiting for `100 Continue` is still writing when the 413 goes out.
    /// Closing a socket with unread input makes the kernel answer with a reset, and a client that gets the reset
    /// before it has read the 413 reports "connection reset" instead of the answer. libmicrohttpd shuts the socket
    /// down for writing after the response (the client sees its end) and then closes it; the server hands a
    /// duplicate descriptor taken just before that to ``adopt(_:)``, which keeps the socket open and drains it until
    /// the client closes, ``byteLimit`` bytes were dropped or ``duration`` passed. At most ``capacity`` sockets
    /// linger at once; past that a socket is closed at once. One thread waits on an epoll set and sleeps while no
    /// socket lingers.
    final class LingeringClose: Sendable {
        private struct Lingering {
            let socket: Int32
            let deadline: ContinuousClock.Instant
            var dropped = 0
        }

        /// The most bytes read and dropped from one socket.
        let byteLimit: Int
        /// The longest a socket lingers.
        let duration: Duration
        /// The most sockets lingering at once.
        let capacity: Int

        /// Woken for a new socket's deadline and for ``stop()``.
        private let epoll: WakeableEpoll
        /// Lingering sockets by epoll token (a token is never reused, so a late event finds nothing).
        private let lingering = Mutex<(next: UInt64, sockets: [UInt64: Lingering])>((1, [:]))
        private let running = Atomic<Bool>(true)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts the thread; nil when the kernel refuses an epoll set (sockets are then closed at once).
        init?(byteLimit: Int, duration: Duration, capacity: Int) {
            guard let epoll = WakeableEpoll() else { return nil }
            self.byteLimit = byteLimit
            self.duration = duration
            self.capacity = capacity
            self.epoll = epoll
            DispatchQueue(label: "MicroHTTP.lingering").async { [self] in
                run()
                finished.signal()
            }
        }

        /// Takes `socket` (a descriptor of its own, which this closes) and drains it until the client closes.
        func adopt(_ socket: Int32) {
            let adopted = lingering.withLock { state -> Bool in
                guard running.load(ordering: .relaxed), state.sockets.count < capacity else { return false }
                let token = state.next
                guard epoll.add(socket, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue, token: token) else {
                    return false
                }
                state.next += 1
                state.sockets[token] = Lingering(socket: socket, deadline: .now + duration)
                return true
            }
            guard adopted else {
                close(socket)
                return
            }
            epoll.wake()  // the thread may sleep with no deadline
        }

        /// Closes every lingering socket and ends the thread (later calls do nothing).
        func stop() {
            guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
            epoll.wake()
            finished.wait()
            lingering.withLock { state in
                for entry in state.sockets.values { close(entry.socket) }
                state.sockets = [:]
            }
            epoll.close()
        }

        /// The thread: drains reported sockets and closes those done or overdue; sleeps until the next deadline.
        private func run() {
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var timeout: Int32 = -1
            while running.load(ordering: .sequentiallyConsistent) {
                for token in epoll.wait(&events, timeout: timeout) { drain(token, &buffer) }
                timeout = closeOverdue()
            }
        }

        /// Reads what `token`'s socket holds; closes it at the client's end, an error or past ``byteLimit``.
        private func drain(_ token: UInt64, _ buffer: inout [UInt8]) {
            lingering.withLock { state in
                guard var entry = state.sockets[token] else { return }
                while true {
                    let count = buffer.withUnsafeMutableBytes {
                        recv(entry.socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                    }
                    if count > 0 {
                        entry.dropped += count
                        if entry.dropped <= byteLimit { continue }
                    } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                        state.sockets[token] = entry
                        return
                    }
                    break  // the client closed, an error, or too much
                }
                state.sockets[token] = nil
                epoll.remove(entry.socket)
                close(entry.socket)
            }
        }

        /// Closes the sockets past their deadline; returns the milliseconds until the next one (-1: none).
        private func closeOverdue() -> Int32 {
            let now = ContinuousClock.now
            return lingering.withLock { state in
                var next: ContinuousClock.Instant?
                for (token, entry) in state.sockets {
                    if entry.deadline <= now {
                        state.sockets[token] = nil
                        epoll.remove(entry.socket)
                        close(entry.socket)
                    } else if next.map({ entry.deadline < $0 }) ?? true {
                        next = entry.deadline
                    }
                }
                guard let next else { return -1 }
                let left = (next - now).components
                return Int32(clamping: left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000 + 1)
            }
        }
    }
#else
    /// Elsewhere than on Linux there is no epoll: a socket that refused a body is closed at once.
    final class LingeringClose: Sendable {
        init?(byteLimit: Int, duration: Duration, capacity: Int) { nil }
        func adopt(_ socket: Int32) {}
        func stop() {}
    }
#endif
