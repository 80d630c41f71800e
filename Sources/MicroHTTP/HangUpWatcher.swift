internal import CMicroHTTPD
import Dispatch
import Synchronization

#if os(Linux)
    import Glibc

    /// Watches the sockets of event-stream connections for a hang-up (epoll, `EPOLLRDHUP`, edge-triggered).
    ///
    /// libmicrohttpd does not poll a suspended connection, nor read from one that is blocked writing to a client
    /// that reads no more; without this a client that closed a stream kept its connection, and its per-address
    /// slot, until the next heartbeat or the idle timeout. A socket is added when its stream's response begins and
    /// stays until its request ends (one `epoll_ctl` each way, not two per event: with a thousand streams following
    /// a session, those calls were a fifth of a broadcast's cost). When its client hangs up (FIN or reset), the
    /// stream ends at once, parked or busy, and the server closes the connection. The thread sleeps in `epoll_wait`
    /// until a socket reports or ``stop()`` wakes it.
    final class HangUpWatcher: HangUpWatching {
        private struct Registry {
            var nextToken: UInt64 = 1
            /// Watched streams by identity: their epoll token and socket.
            var watched: [ObjectIdentifier: (token: UInt64, socket: Int32)] = [:]
            /// Watched streams by epoll token (a token is never reused, so a late event finds nothing).
            var streams: [UInt64: EventStream] = [:]
        }

        /// Woken for ``stop()``.
        private let epoll: WakeableEpoll
        private let registry = Mutex(Registry())
        private let running = Atomic<Bool>(true)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts the watching thread; nil when the kernel refuses an epoll set (then hang-ups are
        /// noticed at the next heartbeat, as before).
        init?() {
            guard let epoll = WakeableEpoll() else { return nil }
            self.epoll = epoll
            let thread = DispatchQueue(label: "MicroHTTP.hangups")
            thread.async { [self] in
                run()
                finished.signal()
            }
        }

        /// Stops the watching thread and closes the epoll set, after the daemon stopped (later calls do nothing).
        func stop() {
            guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
            epoll.wake()
            finished.wait()
            epoll.close()
            registry.withLock { $0 = Registry() }
        }

        func watch(_ stream: EventStream, socket: Int32) {
            let id = ObjectIdentifier(stream)
            registry.withLock { registry in
                guard registry.watched[id] == nil else { return }
                let token = registry.nextToken
                registry.nextToken += 1
                // A client gone already is reported at once: epoll checks the socket as it adds it.
                guard epoll.add(socket, events: EPOLLRDHUP.rawValue | EPOLLET.rawValue, token: token) else { return }
                registry.watched[id] = (token, socket)
                registry.streams[token] = stream
            }
        }

        func ended(_ stream: EventStream) {
            registry.withLock { registry in
                let id = ObjectIdentifier(stream)
                guard let entry = registry.watched.removeValue(forKey: id) else { return }
                registry.streams[entry.token] = nil
                epoll.remove(entry.socket)
            }
        }

        /// The watching loop: each reported socket's stream is told its client hung up. The stream's lock is taken
        /// only after the registry's lock is released (the streams call in the other order).
        private func run() {
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            while running.load(ordering: .sequentiallyConsistent) {
                let tokens = epoll.wait(&events, timeout: -1)
                guard !tokens.isEmpty else { continue }  // woken, or EINTR: check `running` again
                let hungUp = registry.withLock { registry in tokens.compactMap { registry.streams[$0] } }
                for stream in hungUp { stream.clientHungUp() }
            }
        }
    }
#else
    /// Elsewhere than on Linux there is no epoll: hang-ups on streams are noticed at the next heartbeat.
    final class HangUpWatcher: HangUpWatching {
        init?() { nil }
        func stop() {}
        func watch(_ stream: EventStream, socket: Int32) {}
        func ended(_ stream: EventStream) {}
    }
#endif
