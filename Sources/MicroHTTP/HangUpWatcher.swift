internal import CMicroHTTPD
import Dispatch
import Synchronization

#if os(Linux)
    import Glibc

    /// Watches the sockets of event-stream connections for a hang-up (epoll, `EPOLLRDHUP`, edge-triggered).
    ///
    /// libmicrohttpd does not poll a suspended connection, so without this a client that closed an idle
    /// stream kept its connection, and its per-address slot, until the next heartbeat. The watcher wakes
    /// such a stream at once; the server then ends the connection. A socket is added at the stream's first park
    /// and stays until its request ends (one `epoll_ctl` each way, not two per event: with a thousand streams
    /// following a session, those calls were a fifth of a broadcast's cost). A hang-up while the stream is busy
    /// is remembered, and its next park ends it.
    final class HangUpWatcher: ConnectionParking {
        private struct Registry {
            var nextToken: UInt64 = 1
            /// Watched streams by identity: their epoll token and socket.
            var watched: [ObjectIdentifier: (token: UInt64, socket: Int32)] = [:]
            /// Watched streams by epoll token (a token is never reused, so a late event finds nothing).
            var streams: [UInt64: EventStream] = [:]
            /// Streams whose client hung up.
            var hungUp: Set<ObjectIdentifier> = []
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
                watch()
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

        func parked(_ stream: EventStream, connection: OpaquePointer) -> Bool {
            let id = ObjectIdentifier(stream)
            return registry.withLock { registry in
                if registry.hungUp.contains(id) { return false }
                guard registry.watched[id] == nil else { return true }
                let socket = swy_connection_fd(connection)
                guard socket >= 0 else { return true }
                let token = registry.nextToken
                registry.nextToken += 1
                var event = epoll_event()
                event.events = EPOLLRDHUP.rawValue | EPOLLET.rawValue
                event.data.u64 = token
                guard epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0 else { return true }
                registry.watched[id] = (token, socket)
                registry.streams[token] = stream
                return true
            }
        }

        func ended(_ stream: EventStream) {
            registry.withLock { registry in
                let id = ObjectIdentifier(stream)
                registry.hungUp.remove(id)
                guard let entry = registry.watched.removeValue(forKey: id) else { return }
                registry.streams[entry.token] = nil
                _ = epoll_ctl(epoll, EPOLL_CTL_DEL, entry.socket, nil)
            }
        }

        /// The watching loop: each reported socket's stream is told its client hung up. The stream's
        /// lock is taken only after the registry's lock is released (the streams call in the other order).
        private func watch() {
            var events = [epoll_event](repeating: epoll_event(), count: 64)
            while running.load(ordering: .sequentiallyConsistent) {
                let count = epoll_wait(epoll, &events, Int32(events.count), 1000)
                guard count > 0 else { continue }  // timeout or EINTR: check `running` again
                let hungUp = registry.withLock { registry in
                    let streams = events[0..<Int(count)].compactMap { registry.streams[$0.data.u64] }
                    for stream in streams { registry.hungUp.insert(ObjectIdentifier(stream)) }
                    return streams
                }
                for stream in hungUp { stream.clientHungUp() }
            }
        }
    }
#else
    /// Elsewhere than on Linux there is no epoll: hang-ups on idle streams are noticed at the next heartbeat.
    final class HangUpWatcher: ConnectionParking {
        init?() { nil }
        func stop() {}
        func parked(_ stream: EventStream, connection: OpaquePointer) -> Bool { true }
        func ended(_ stream: EventStream) {}
    }
#endif
