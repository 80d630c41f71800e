#if canImport(Glibc)
    import Glibc
#endif

/// Plain TCP sockets to 127.0.0.1 for the benchmark's clients.
enum BenchSocket {
    /// A connected socket, bound first to `source` (another loopback address) when given.
    static func connect(port: UInt16, source: String? = nil) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BenchError("socket failed: errno \(errno)") }
        var noDelay: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        if let source {
            var local = address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw BenchError("bind to \(source) failed: errno \(errno)") }
        }
        var remote = address("127.0.0.1", port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchError("connect to port \(port) failed: errno \(errno)") }
        return socket
    }

    /// Sends all of `bytes`.
    static func send(_ socket: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
            guard sent > 0 else { throw BenchError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    private static func address(_ text: String, port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, text, &address.sin_addr)
        return address
    }
}
