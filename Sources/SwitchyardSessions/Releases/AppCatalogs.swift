import Switchyard
import Synchronization

/// Catalogs computed once per app (exploring routes calls factories, so it is not done per request).
package final class AppCatalogs: Sendable {
    package init() {}

    private let cache = Mutex<[String: [UInt8]]>([:])

    /// The catalog of `app`, as served since the `generation`-th reload (an app read before a reload never caches
    /// its catalog over the new one's).
    package func catalog(of app: NavigationApp, generation: Int) -> [UInt8] {
        let key = "\(generation) \(app.identity)"
        return cache.withLock { cache in
            if let bytes = cache[key] { return bytes }
            let bytes = app.catalog().serialized()
            cache[key] = bytes
            return bytes
        }
    }

    /// Forgets every catalog (the apps were reloaded).
    package func forget() {
        cache.withLock { $0 = [:] }
    }
}
