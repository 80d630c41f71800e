import MicroHTTP
import Switchyard
import Synchronization

/// Catalogs computed once per app (exploring routes calls factories, so it is not done per request).
final class LockedCatalogs: Sendable {
    private let cache = Mutex<[String: [UInt8]]>([:])

    /// The catalog of `app`, as served since the `generation`-th reload (an app read before a reload never caches
    /// its catalog over the new one's).
    func catalog(of app: NavigationApp, generation: Int) -> [UInt8] {
        let key = "\(generation) \(app.identity)"
        return cache.withLock { cache in
            if let bytes = cache[key] { return bytes }
            let bytes = app.catalog().serialized()
            cache[key] = bytes
            return bytes
        }
    }

    /// Forgets every catalog (the apps were reloaded).
    func forget() {
        cache.withLock { $0 = [:] }
    }
}

/// What identifies a request for idempotency: a retry has the same fingerprint, a different request under the
/// same `Idempotency-Key` (almost surely) not. FNV-1a over method, path, `If-Match` and body.
enum RequestFingerprint {
    static func of(_ request: HTTPRequest) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x0100_0000_01b3
        }
        mix(request.method.utf8)
        mix(request.path.utf8)
        mix((request.headers["if-match"] ?? "").utf8)
        mix(request.body)
        return hash
    }
}

extension Problem {
    /// 422: an `Idempotency-Key` already answered a different request.
    static func idempotencyKeyReused(_ key: String) -> Problem {
        Problem(
            status: 422, code: "idempotencyKeyReused", title: "Idempotency key reused",
            detail: "the Idempotency-Key '\(key)' was used for a different request; use a new key for a new request")
    }
}
