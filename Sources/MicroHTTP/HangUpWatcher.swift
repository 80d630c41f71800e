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

        private let epoll: Int32
        /// An eventfd that wakes the watching thread for ``stop()``.
        private let wakeUp: Int32
        private let registry = Mutex(Registry())
        private let running = Atomic<Bool>(true)
        private let finished = DispatchSemaphore(value: 0)

        /// Starts the watching thread; nil when the kernel refuses an epoll set (then hang-ups are
        /// noticed at the next heartbeat, as before).
        init?() {
            let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { return nil }
            let wakeUp = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
            guard wakeUp >= 0 else {
                close(epoll)
                return nil
            }
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = 0
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeUp, &event) == 0 else {
                close(wakeUp)
                close(epoll)
                return nil
            }
            self.epoll = epoll
            self.wakeUp = wakeUp
            let thread = DispatchQueue(label: "MicroHTTP.hangups")
            thread.async { [self] in
                run()
                finished.signal()
            }
        }

        /// Stops the watching thread and closes the epoll set, after the daemon stopped (later calls do nothing).
        func stop() {
            guard running.exchange(false, ordering: .sequentiallyConsistent) else { return }
            var one: UInt64 = 1
            _ = write(wakeUp, &one, MemoryLayout<UInt64>.size)
            finished.wait()
            close(wakeUp)
            close(epoll)
            registry.withLock { $0 = Registry() }
        }

        func watch(_ stream: EventStream, socket: Int32) {
            let id = ObjectIdentifier(stream)
            registry.withLock { registry in
                guard registry.watched[id] == nil else { return }
                let token = registry.nextToken
                registry.nextToken += 1
                var event = epoll_event()
                event.events = EPOLLRDHUP.rawValue | EPOLLET.rawValue
                event.data.u64 = token
                // A client gone already is reported at once: epoll checks the socket as it adds it.
                guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else { return }
                registry.watched[id] = (token, socket)
                registry.streams[token] = stream
            }
        }

        func ended(_ stream: EventStream) {
            registry.withLock { registry in
                let id = ObjectIdentifier(stream)
                guard let entry = registry.watched.removeValue(forKey: id) else { return }
                registry.streams[entry.token] = nil
                _ = epoll_ctl(epoll, EPOLL_CTL_DEL, entry.socket, nil)
            }
        }

        /// The watching loop: each reported socket's stream is told its client hung up. The stream's lock is taken
        /// only after the registry's lock is released (the streams call in the other order).
        private func run() {
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            while running.load(ordering: .sequentiallyConsistent) {
                let count = epoll_wait(epoll, &events, Int32(events.count), -1)
                guard count > 0 else { continue }  // EINTR: check `running` again
                let hungUp = registry.withLock { registry in
                    events[0..<Int(count)].compactMap { registry.streams[$0.data.u64] }
                }
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
