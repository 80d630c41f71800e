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
    private let lock = NSLock()
    private var responses: [String: HTTPResponse] = [:]
    private var order: [String] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func response(for key: String) -> HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        guard var response = responses[key] else { return nil }
        response.headers.append(("Idempotent-Replayed", "true"))
        return response
    }

    func store(_ response: HTTPResponse, for key: String) {
        lock.lock()
        defer { lock.unlock() }
        if responses[key] == nil {
            order.append(key)
            if order.count > limit { responses[order.removeFirst()] = nil }
        }
        responses[key] = response
    }
}
