import Foundation

/// What each route declaration of the program makes its route from, kept once for the process: a route wrapper
/// stores only its declaration site, so a coordinator instance holds 16 bytes per route instead of its factory,
/// style and options (96 bytes for a `@Route`).
///
/// Every wrapper's initializer registers its declaration under its site and its owner's type (a generic coordinator
/// declares one route per specialization at one site); only the first one of each makes the entry. The entries are
/// as many as the program's declarations, whatever the number of instances.
final class RouteDeclarations: @unchecked Sendable {
    // @unchecked: the entries hold unapplied method references (not Sendable, never changed once made); the
    // dictionary is only touched under `lock`.

    /// One declaration: where, and of which coordinator type.
    struct Key: Hashable {
        let site: RouteSite
        let owner: ObjectIdentifier
    }

    static let shared = RouteDeclarations()

    private let lock = NSLock()
    private var entries: [Key: () -> AnyTransition] = [:]

    /// Notes the declaration at `site` of `owner`'s routes, unless it is known: `make` is only called the first time,
    /// and returns what makes the route's transition.
    func register(_ site: RouteSite, owner: AnyObject.Type, _ make: () -> () -> AnyTransition) {
        let key = Key(site: site, owner: ObjectIdentifier(owner))
        lock.lock()
        defer { lock.unlock() }
        if entries[key] == nil { entries[key] = make() }
    }

    /// The type-erased route declared at `site` of `owner`'s routes; nil if no wrapper was made there.
    func transition(_ site: RouteSite, owner: AnyObject.Type) -> AnyTransition? {
        let key = Key(site: site, owner: ObjectIdentifier(owner))
        let make = lock.withLock { entries[key] }
        return make?()
    }
}
