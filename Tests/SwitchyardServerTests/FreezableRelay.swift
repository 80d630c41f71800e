import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP relay on 127.0.0.1 in front of a server, that can freeze: while frozen, it takes what either side sends and
/// passes nothing on, and new connections are accepted but wait. The connections stay open, as with a server that
/// hangs (`kill -STOP`) or a network that drops everything silently. Without an upstream, it accepts connections
/// and never answers at all.
final class FreezableRelay: Sendable {
    /// The port clients connect to.
    let port: Int
    private let upstreamPort: Int?
    private let listener: Int32
    private let state = Mutex(State())

    private struct State {
        var frozen = false
        var stopped = false
        var sockets: [Int32] = []
    }

    enum Failure: Error {
        case socket(Int32)
    }

    /// A relay to `upstreamPort` on 127.0.0.1 (nil: nobody behind it).
    init(upstreamPort: Int?) throws {
        self.upstreamPort = upstreamPort
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure.socket(errno) }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, Glibc.listen(listener, 64) == 0 else {
            close(listener)
            throw Failure.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in accept() }
    }

    /// A `postgresql://` URL through the relay to `database`.
    func url(database: String) -> String {
        "postgresql://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Stops passing anything on (what arrives meanwhile is held, and passed on by ``thaw()``).
    func freeze() {
        state.withLock { $0.frozen = true }
    }

    func thaw() {
        state.withLock { $0.frozen = false }
    }

    /// Closes the relay and every connection through it.
    func stop() {
        let sockets = state.withLock { state in
            state.stopped = true
            return state.sockets
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    deinit {
        stop()
        close(listener)
        // Only accepted connections without an upstream are left (a relayed one keeps the relay alive).
        state.withLock { state in
            for socket in state.sockets { close(socket) }
        }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func accept() {
        while !stopped {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            state.withLock { $0.sockets.append(client) }
            guard let upstreamPort else { continue }  // nobody behind: never answered (closed by stop())
            Thread.detachNewThread { [self] in relay(client, to: upstreamPort) }
        }
    }

    /// Passes one connection on both ways until either side ends it; then closes both sockets.
    private func relay(_ client: Int32, to upstreamPort: Int) {
        waitWhileFrozen()
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        state.withLock { $0.sockets.append(upstream) }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if connected == 0 {
            let back = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [self] in
                pump(from: upstream, to: client)
                back.signal()
            }
            pump(from: client, to: upstream)
            back.wait()
        }
        // Closed under the lock, once no thread uses them: stop() never touches a number reused meanwhile.
        state.withLock { state in
            state.sockets.removeAll { $0 == client || $0 == upstream }
            close(client)
            close(upstream)
        }
    }

    private func pump(from source: Int32, to target: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            waitWhileFrozen()
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes {
                    send(target, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL))
                }
                guard written > 0 else { break }
                sent += written
            }
            guard sent == count else { break }
        }
        shutdown(source, Int32(SHUT_RDWR))
        shutdown(target, Int32(SHUT_RDWR))
    }

    private func waitWhileFrozen() {
        while state.withLock({ $0.frozen && !$0.stopped }) { usleep(5000) }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
