/// How a session stored by an earlier version of an app becomes one of this version: declared on the newer app
/// (``NavigationApp/init(name:version:root:deepLinks:migrations:)``) and applied to the session's restore document.
///
/// Every rule names coordinators and routes as the version migrated from (`from`) named them. A migration renames
/// coordinator types and routes, removes routes (saying where a user on one lands instead) and reshapes a persistent
/// coordinator's data; the migrated document must then restore under the new app, or the session is not migrated.
///
/// ```swift
/// AppMigration(from: 1)
///     .renamingCoordinator("TodosCoordinator", to: "ListsCoordinator")
///     .renamingRoute("detail", to: "todo", in: "TodosCoordinator")
///     .removingRoute("legacyExport", in: "SettingsCoordinator", landing: .below)
///     .reshapingData(of: "TodosCoordinator") { data in data }
/// ```
public struct AppMigration: Sendable {
    /// Where a user on a removed route lands.
    public enum Landing: Sendable, Equatable {
        /// On what was beneath it: the entry leaves its stack with everything pushed or presented above it (a removed
        /// tab leaves the tab bar; the first tab is selected if it was). A removed root route cannot land below.
        case below
        /// On another route of the same coordinator, with `input`, in its place (a screen for a screen: an entry
        /// that hosted a coordinator cannot become a screen, nor the other way round).
        case route(String, input: JSONValue? = nil)
    }

    /// The version whose sessions this migration takes.
    public let from: Int
    private(set) var coordinators: [String: String] = [:]
    private(set) var routes: [String: [String: String]] = [:]
    private(set) var removed: [String: [String: Landing]] = [:]
    private(set) var reshapes: [String: @Sendable (JSONValue) throws -> JSONValue] = [:]

    /// A migration of sessions stored by version `from`.
    public init(from: Int) {
        self.from = from
    }

    /// Coordinators of type `old` are of type `new` now.
    public func renamingCoordinator(_ old: String, to new: String) -> AppMigration {
        var copy = self
        copy.coordinators[old] = new
        return copy
    }

    /// Route `old` of coordinator `coordinator` is route `new` now (same input).
    public func renamingRoute(_ old: String, to new: String, in coordinator: String) -> AppMigration {
        var copy = self
        copy.routes[coordinator, default: [:]][old] = new
        return copy
    }

    /// Route `route` of coordinator `coordinator` is gone: a user on it lands as `landing` says.
    public func removingRoute(_ route: String, in coordinator: String, landing: Landing) -> AppMigration {
        var copy = self
        copy.removed[coordinator, default: [:]][route] = landing
        return copy
    }

    /// The data of every persistent coordinator of type `coordinator` is `reshape(data)` now; an error it throws
    /// leaves the session unmigrated, with the error as the reason.
    public func reshapingData(
        of coordinator: String, _ reshape: @escaping @Sendable (JSONValue) throws -> JSONValue
    ) -> AppMigration {
        var copy = self
        copy.reshapes[coordinator] = reshape
        return copy
    }

    /// The coordinator types it renames: old name → new name.
    public var renamedCoordinators: [String: String] { coordinators }

    /// The routes it renames, by coordinator type (as the version migrated from named it): old route → new route.
    public var renamedRoutes: [String: [String: String]] { routes }

    /// The routes it removes, by coordinator type (as the version migrated from named it), with where their users
    /// land.
    public var removedRoutes: [String: [String: Landing]] { removed }

    /// Whether the migration changes nothing.
    public var isEmpty: Bool {
        coordinators.isEmpty && routes.isEmpty && removed.isEmpty && reshapes.isEmpty
    }

    /// The coordinator types and routes it names (type, route or nil), for ``NavigationApp/check()``.
    var namedCoordinators: [String] {
        Array(Set(coordinators.keys).union(routes.keys).union(removed.keys).union(reshapes.keys)).sorted()
    }

    /// The new names of the renamed coordinators, for the check.
    var renamedCoordinatorTargets: [String] {
        Set(coordinators.values).sorted()
    }

    /// The new name of each renamed or replaced route, by the coordinator's new type: what the new app must declare.
    var introducedRoutes: [(coordinator: String, route: String)] {
        let renamed = routes.flatMap { type, names in names.values.map { (coordinators[type] ?? type, $0) } }
        let landings = removed.flatMap { type, names in
            names.values.compactMap { landing -> (String, String)? in
                guard case .route(let route, _) = landing else { return nil }
                return (coordinators[type] ?? type, route)
            }
        }
        return (renamed + landings).sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { ($0.0, $0.1) }
    }
}
