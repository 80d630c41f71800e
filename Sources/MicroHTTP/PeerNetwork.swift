#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The network a client address belongs to: its IPv4 /24, or its IPv6 /48 (an IPv4-mapped IPv6 address counts
/// as IPv4). The clients of one network share a limit of connections (``HTTPServerConfiguration/maxConnectionsPerNetwork``),
/// so that many addresses of one network cannot hold the whole server, and a larger allowance of costly requests
/// (``ClientRateLimiter``).
struct PeerNetwork: Hashable, Sendable, CustomStringConvertible {
    private let bits: UInt64

    /// The network of `address`; nil for another family (a Unix socket).
    init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self.init(
                addressBytes: address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) }
                })
        case AF_INET6:
            self.init(
                addressBytes: address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) }
                })
        default:
            return nil
        }
    }

    /// The network of an IP address written as text (`192.0.2.7`, `2001:db8::1`); nil for anything else.
    init?(text: String) {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        if inet_pton(AF_INET, text, &ipv4) == 1 {
            self.init(addressBytes: withUnsafeBytes(of: ipv4) { Array($0) })
        } else if inet_pton(AF_INET6, text, &ipv6) == 1 {
            self.init(addressBytes: withUnsafeBytes(of: ipv6) { Array($0) })
        } else {
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

    /// The network of an address's 4 (IPv4) or 16 (IPv6) bytes, in network order.
    private init(addressBytes bytes: [UInt8]) {
        let ipv4 = Self.ipv4(unmapping: bytes)
        if let ipv4 {
            bits = (UInt64(4) << 56) | UInt64(ipv4[0]) << 16 | UInt64(ipv4[1]) << 8 | UInt64(ipv4[2])
        } else {
            bits = (UInt64(6) << 56) | bytes[0..<6].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }

    /// The IPv4 address of 4 bytes, or of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`); nil for another IPv6
    /// address.
    static func ipv4(unmapping bytes: [UInt8]) -> [UInt8]? {
        if bytes.count == 4 { return bytes }
        guard bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff else { return nil }
        return Array(bytes[12..<16])
    }

    /// `192.0.2.0/24`, or `2001:db8:1::/48`.
    var description: String {
        let low = (0..<6).reversed().map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        if bits >> 56 == 4 { return low[3..<6].map(String.init).joined(separator: ".") + ".0/24" }
        let groups = stride(from: 0, to: 6, by: 2).map { String(UInt16(low[$0]) << 8 | UInt16(low[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/48"
    }
}
