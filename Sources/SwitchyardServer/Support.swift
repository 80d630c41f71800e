import Foundation
import MicroHTTP
import Switchyard

/// Catalogs computed once per app (exploring routes calls factories, so it is not done per request).
final class LockedCatalogs: @unchecked Sendable {
    // @unchecked: `cache` is only touched while `lock` is held.
    private let lock = NSLock()
    private var cache: [String: [UInt8]] = [:]

    func catalog(of app: NavigationApp) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        if let bytes = cache[app.name] { return bytes }
        let bytes = app.catalog().serialized()
        cache[app.name] = bytes
        return bytes
    }
}

/// Responses remembered by idempotency key (for `POST /api/sessions`), oldest forgotten first.
final class IdempotencyLedger: @unchecked Sendable {
    // @unchecked: all state is only touched while `lock` is held.

    /// A remembered creation: the 201, the session it created and the request's fingerprint.
    struct Entry {
        let response: HTTPResponse
        let session: String
        let fingerprint: UInt64
    }

    private let lock = NSLock()
    /// Held across look-up, creation and `store` of a keyed creation (never while holding `lock`).
    private let creationLock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Runs keyed creations one at a time, so that two retries racing with one key cannot both create.
    func serializingCreations<Result>(_ body: () throws -> Result) rethrows -> Result {
        creationLock.lock()
        defer { creationLock.unlock() }
        return try body()
    }

    func entry(for key: String) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    func store(_ entry: Entry, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil {
            order.append(key)
            if order.count > limit { entries[order.removeFirst()] = nil }
        }
        entries[key] = entry
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
