internal import CMicroHTTPD

#if os(Linux)
    import Glibc

    /// An epoll set with an eventfd that wakes the thread waiting on it: what the threads that watch sockets beside
    /// libmicrohttpd (``HangUpWatcher``, ``LingeringClose``) share. Token 0 is the eventfd's; sockets are added
    /// with tokens of their own.
    final class WakeableEpoll: Sendable {
        private let epoll: Int32
        private let wakeUp: Int32

        /// A new set; nil when the kernel refuses an epoll set or an eventfd.
        init?() {
            let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { return nil }
            let wakeUp = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
            guard wakeUp >= 0 else {
                Glibc.close(epoll)
                return nil
            }
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = 0
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeUp, &event) == 0 else {
                Glibc.close(wakeUp)
                Glibc.close(epoll)
                return nil
            }
            self.epoll = epoll
            self.wakeUp = wakeUp
        }

        /// Watches `socket` for `events`, reported as `token` (not 0); false when epoll refuses it.
        func add(_ socket: Int32, events: UInt32, token: UInt64) -> Bool {
            var event = epoll_event()
            event.events = events
            event.data.u64 = token
            return epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) == 0
        }

        /// Stops watching `socket`.
        func remove(_ socket: Int32) {
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
        }

        /// Wakes the thread in ``wait(_:timeout:)``.
        func wake() {
            var one: UInt64 = 1
            _ = write(wakeUp, &one, MemoryLayout<UInt64>.size)
        }

        /// Waits up to `timeout` milliseconds (-1: until something happens) and returns the tokens of the sockets
        /// that reported, in `events`' room; a wake-up is consumed, not returned (nor is an interrupted wait).
        func wait(_ events: inout [epoll_event], timeout: Int32) -> [UInt64] {
            let count = epoll_wait(epoll, &events, Int32(events.count), timeout)
            var tokens: [UInt64] = []
            for event in events[0..<Int(max(count, 0))] {
                if event.data.u64 == 0 {
                    var value: UInt64 = 0
                    _ = read(wakeUp, &value, MemoryLayout<UInt64>.size)
                } else {
                    tokens.append(event.data.u64)
                }
            }
            return tokens
        }

        /// Closes the set and its eventfd (after the waiting thread ended).
        func close() {
            Glibc.close(wakeUp)
            Glibc.close(epoll)
        }
    }
#endif
