import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many times a minute each client address may do something costly (create a session, check a definition): a
/// token bucket per address that holds `perMinute` tokens and refills at that rate, and one per network (an IPv4
/// /24, an IPv6 /48) that holds ``networkFactor`` times as many: one client with many addresses is held to what a
/// network of many users behind it may do.
///
/// IPv6 clients are counted by their /64 prefix (one customer's network), IPv4 clients by address. The table is
/// bounded: buckets that have refilled completely carry no information and are dropped when it grows.
public final class ClientRateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    /// What a request may do.
    public enum Decision: Equatable, Sendable {
        case allowed
        /// Refused; a token is back after this many seconds (at least 1).
        case refused(retryAfter: Int)
    }

    private let perMinute: Int
    private let now: @Sendable () -> Double
    private let buckets = Mutex<[String: Bucket]>([:])
    /// Buckets kept before full ones are swept out.
    private let sweepAbove = 10_000

    /// A limiter of `perMinute` takes per address (0: unlimited), on clock `now` (seconds).
    public init(perMinute: Int, now: @escaping @Sendable () -> Double) {
        self.perMinute = perMinute
        self.now = now
    }

    /// How many times an address's allowance its network (/24, /48) has.
    public static let networkFactor = 16

    /// Takes a token for `peer` (an IP address as text), and one for its network, if both have one left.
    public func take(for peer: String) -> Decision {
        guard perMinute > 0 else { return .allowed }
        let time = now()
        let limits = [
            (Self.clientKey(peer), Double(perMinute)),
            (Self.networkKey(peer), Double(perMinute * Self.networkFactor)),
        ]
        return buckets.withLock { buckets in
            if buckets.count > sweepAbove {
                // A full bucket of either kind carries nothing: an address's refills in a minute at most.
                let capacity = Double(perMinute)
                buckets = buckets.filter { $0.value.tokens + (time - $0.value.updated) * capacity / 60 < capacity }
            }
            var filled: [(String, Bucket)] = []
            for (key, capacity) in limits {
                let rate = capacity / 60
                var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: time)
                bucket.tokens = min(capacity, bucket.tokens + max(0, time - bucket.updated) * rate)
                bucket.updated = time
                guard bucket.tokens >= 1 else {
                    buckets[key] = bucket
                    return .refused(retryAfter: max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))))
                }
                filled.append((key, bucket))
            }
            for (key, var bucket) in filled {
                bucket.tokens -= 1
                buckets[key] = bucket
            }
            return .allowed
        }
    }

    /// The network an address belongs to: its /24 for IPv4 (also IPv4-mapped IPv6), its /48 for IPv6
    /// (``PeerNetwork``, as the connection limits count them); the text itself when it is no address.
    public static func networkKey(_ peer: String) -> String {
        PeerNetwork(text: peer)?.description ?? peer
    }

    /// The address itself for IPv4 (also IPv4-mapped IPv6), the first 64 bits for other IPv6 addresses.
    public static func clientKey(_ peer: String) -> String {
        guard peer.contains(":") else { return peer }
        var address = in6_addr()
        guard inet_pton(AF_INET6, peer, &address) == 1 else { return peer }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        if let ipv4 = PeerNetwork.ipv4(unmapping: bytes) { return ipv4.map(String.init).joined(separator: ".") }
        return bytes[0..<8].map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}
