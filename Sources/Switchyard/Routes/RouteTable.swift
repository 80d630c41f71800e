import Foundation
import Synchronization

/// The routes of one coordinator type, found once by reflection and cached for the process.
///
/// Route names are property names (`@Route var todo` is `todo`), so routes declared once are reachable both through
/// key paths (Swift) and by name with JSON input (the server), with no second registration. Factories are unapplied
/// methods of the type (they capture no instance), so one table serves every instance of the type: the route wrappers
/// of an instance are values holding only their declaration site (``RouteDeclarations`` keeps the rest).
package final class RouteTable: @unchecked Sendable {
    // @unchecked: its transitions are unapplied method references (not Sendable, never changed after construction)
    // and `keyPathNames` (key paths are not Sendable, so not in a Mutex) is only touched under `lock`.

    package let typeName: String
    let routes: [String: AnyTransition]
    let order: [String]
    /// Routes declared at the site of an earlier route of the type (a helper that passes `fileID`, `line` and
    /// `column` on): each is the earlier route again, not its own (``NavigationApp/check()`` reports them).
    let sharedSites: [(route: String, sameAs: String)]
    private let lock = NSLock()
    private var keyPathNames: [AnyKeyPath: String] = [:]

    private init(coordinator: AnyObject) {
        typeName = String(describing: type(of: coordinator))
        var routes: [String: AnyTransition] = [:]
        var order: [String] = []
        var sites: [RouteSite: String] = [:]
        var sharedSites: [(route: String, sameAs: String)] = []
        var mirror: Mirror? = Mirror(reflecting: coordinator)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, let declaration = child.value as? any RouteDeclaration else {
                    continue
                }
                let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                if routes[name] == nil, let transition = declaration.makeTransition() {
                    routes[name] = transition
                    order.append(name)
                    if let earlier = sites[declaration.site] {
                        sharedSites.append((name, earlier))
                    } else {
                        sites[declaration.site] = name
                    }
                }
            }
            mirror = current.superclassMirror
        }
        self.routes = routes
        self.order = order
        self.sharedSites = sharedSites
    }

    /// The table of a coordinator declared as data (a ``DynamicCoordinator``): its type's name and its routes, in
    /// order (the first of two routes with one name wins, as with inherited properties).
    package init(typeName: String, routes: [(name: String, transition: AnyTransition)]) {
        self.typeName = typeName
        var table: [String: AnyTransition] = [:]
        var order: [String] = []
        for (name, transition) in routes where table[name] == nil {
            table[name] = transition
            order.append(name)
        }
        self.routes = table
        self.order = order
        sharedSites = []
    }

    private static let cache = Mutex<[ObjectIdentifier: RouteTable]>([:])

    /// The table of `coordinator`'s type (a ``DynamicCoordinator`` has its own).
    static func of(_ coordinator: AnyObject) -> RouteTable {
        if let dynamic = coordinator as? any DynamicCoordinator { return dynamic.routeTable }
        let key = ObjectIdentifier(type(of: coordinator))
        if let table = cache.withLock({ $0[key] }) { return table }
        let table = RouteTable(coordinator: coordinator)
        return cache.withLock { tables in
            if let existing = tables[key] { return existing }
            tables[key] = table
            return table
        }
    }

    /// Every table built so far (the catalog of coordinator types this process has seen).
    static var all: [RouteTable] {
        cache.withLock { Array($0.values) }.sorted { $0.typeName < $1.typeName }
    }

    /// Names of the routes of one kind, in declaration order.
    func names(_ kind: RouteKind) -> [String] {
        order.filter { routes[$0]?.kind == kind }
    }

    /// The route a key path of `owner` points at.
    func name<Owner: AnyObject>(for keyPath: PartialKeyPath<Owner>, in owner: Owner) -> String? {
        if let name = lock.withLock({ keyPathNames[keyPath] }) { return name }
        guard let target = (owner[keyPath: keyPath] as? any RouteHandle)?.site else { return nil }
        var mirror: Mirror? = Mirror(reflecting: owner)
        while let current = mirror {
            for child in current.children {
                guard let label = child.label, let declaration = child.value as? any RouteDeclaration,
                    declaration.site == target
                else { continue }
                let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
                lock.withLock { keyPathNames[keyPath] = name }
                return name
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
