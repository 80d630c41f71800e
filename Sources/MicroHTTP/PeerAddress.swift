#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Formats socket addresses as text.
enum PeerAddress {
    /// The IP address in `address` (IPv4 or IPv6), or `"unknown"`.
    static func string(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "unknown" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                var ip = ipv4.pointee.sin_addr
                guard inet_ntop(AF_INET, &ip, &text, socklen_t(text.count)) != nil else { return "unknown" }
                return CText.string(text)
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                var ip = ipv6.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count)) != nil else { return "unknown" }
                let result = CText.string(text)
                return result.hasPrefix("::ffff:") && result.contains(".") ? String(result.dropFirst(7)) : result
            }
        default:
            return "unknown"
        }
    }
}
