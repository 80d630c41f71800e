import Switchyard
import SwitchyardJSON

/// The names a migration chain renames and removes, applied to what a recorded request and a recorded visible path
/// name: a request recorded on version 1 of an app is re-run on version 2 as version 2 names things, exactly as the
/// chain migrates the session's document.
///
/// A request or a path names a route without its coordinator (that is known only when the steps run), so a route is
/// renamed when every coordinator the migration renames it in agrees on the new name, and left alone otherwise.
/// Deep-link URLs, flow event names and node ids are not translated: the new version's router and handlers read
/// them, and a migration keeps node ids.
struct RouteTranslation: Sendable {
    /// The migrations in order, oldest first.
    private let steps: [(migration: AppMigration, target: AppVersion)]

    /// The translation along `chain` (``Switchyard/NavigationApp/migrationPath(from:through:)``); none when empty.
    init(chain: [(AppMigration, AppVersion)]) {
        steps = chain.map { (migration: $0.0, target: $0.1) }
    }

    /// Whether it changes nothing.
    var isEmpty: Bool { steps.isEmpty }

    /// Coordinator type `name` as the last version names it.
    func coordinator(_ name: String) -> String {
        steps.reduce(name) { name, step in step.migration.renamedCoordinators[name] ?? name }
    }

    /// Route `name` as the last version names it (unchanged when removed, or renamed ambiguously).
    func route(_ name: String) -> String {
        var name = name
        for step in steps {
            let renamed = Set(step.migration.renamedRoutes.values.compactMap { $0[name] })
            guard renamed.count == 1, let new = renamed.first else {
                if removal(of: name, in: step.migration) { return name }
                continue
            }
            name = new
        }
        return name
    }

    /// The version whose migration removed route `name` (as the recording named it), if one did.
    func removal(of name: String) -> AppVersion? {
        var name = name
        for step in steps {
            let renamed = Set(step.migration.renamedRoutes.values.compactMap { $0[name] })
            if renamed.count == 1, let new = renamed.first {
                name = new
            } else if removal(of: name, in: step.migration) {
                return step.target
            }
        }
        return nil
    }

    private func removal(of name: String, in migration: AppMigration) -> Bool {
        migration.removedRoutes.values.contains { $0[name] != nil }
    }

    /// A recorded visible path as the last version names its routes.
    func path(_ path: [String]) -> [String] {
        isEmpty ? path : path.map(route)
    }

    /// The routes a transitions body names (its steps' `route`, and `routes[].route` of `pushStack`), in order.
    static func routes(in body: JSONValue) -> [String] {
        steps(of: body).flatMap { step -> [String] in
            let own = step["route"]?.stringValue.map { [$0] } ?? []
            guard case .array(let entries)? = step["routes"] else { return own }
            return own + entries.compactMap { $0["route"]?.stringValue }
        }
    }

    /// A transitions body (one step, or `{"coordinator"?, "steps"}`) with its coordinator type and routes renamed.
    func transitions(_ body: JSONValue) -> JSONValue {
        guard !isEmpty, case .object(var members) = body else { return body }
        if members["steps"] == nil { return .object(step(members)) }
        if let coordinator = members["coordinator"]?.stringValue {
            members["coordinator"] = .string(self.coordinator(coordinator))
        }
        if case .array(let steps)? = members["steps"] {
            members["steps"] = .array(
                steps.map { value in
                    guard case .object(let step) = value else { return value }
                    return .object(self.step(step))
                })
        }
        return .object(members)
    }

    private func step(_ members: [String: JSONValue]) -> [String: JSONValue] {
        var members = members
        if let route = members["route"]?.stringValue { members["route"] = .string(self.route(route)) }
        if let coordinator = members["coordinator"]?.stringValue {
            members["coordinator"] = .string(self.coordinator(coordinator))
        }
        if case .array(let entries)? = members["routes"] {
            members["routes"] = .array(
                entries.map { entry in
                    guard case .object(var inner) = entry, let route = inner["route"]?.stringValue else { return entry }
                    inner["route"] = .string(self.route(route))
                    return .object(inner)
                })
        }
        return members
    }

    private static func steps(of body: JSONValue) -> [JSONValue] {
        if case .array(let steps)? = body["steps"] { return steps }
        return body["action"] == nil ? [] : [body]
    }
}
