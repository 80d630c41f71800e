#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The network a client address belongs to: its IPv4 /24, or its IPv6 /48 (an IPv4-mapped IPv6 address counts
/// as IPv4). The clients of one network share a limit of connections (``HTTPServerConfiguration/maxConnectionsPerNetwork``),
/// so that many addresses of one network cannot hold the whole server.
struct PeerNetwork: Hashable, Sendable {
    private let bits: UInt64

    /// The network of `address`; nil for another family (a Unix socket).
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) }
            }
            self.init(ipv4: bytes)
        case AF_INET6:
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) }
            }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                self.init(ipv4: Array(bytes[12..<16]))
            } else {
                self.init(bits: (UInt64(6) << 56) | bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            }
        default:
            return nil
        }
    }

    /// The network of the peer of a connected `socket`; nil when it cannot be told.
    init?(socket: Int32) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> PeerNetwork? in
                guard getpeername(socket, address, &length) == 0 else { return nil }
                return PeerNetwork(UnsafePointer(address))
            }
        }
        guard let found else { return nil }
        self = found
    }

    private init(ipv4 bytes: [UInt8]) {
        self.init(bits: (UInt64(4) << 56) | UInt64(bytes[0]) << 16 | UInt64(bytes[1]) << 8 | UInt64(bytes[2]))
    }

    private init(bits: UInt64) {
        self.bits = bits
    }
}
