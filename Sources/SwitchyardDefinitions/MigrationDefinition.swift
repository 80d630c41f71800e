import Switchyard

/// How sessions of an earlier version of a definition become sessions of this one (`migrations` in a definition):
/// renamed coordinators and routes, removed routes with where their users land, and steps that reshape the session
/// data. Names are those of the version migrated from; docs/app-versions.md describes the format.
struct MigrationDefinition: Sendable {
    /// One step reshaping the session data; paths are dotted object keys (`settings.theme`).
    enum DataStep: Sendable, Equatable {
        /// The value at `from` moves to `to` (nothing when there is none).
        case rename(from: [String], to: [String])
        /// `path` holds `value` (objects on the way are made).
        case set([String], JSONValue)
        /// `path` holds `value` unless it holds something already.
        case setDefault([String], JSONValue)
        /// Nothing is at `path` any more.
        case remove([String])
    }

    let from: Int
    let coordinators: [String: String]
    let routes: [String: [String: String]]
    let removed: [String: [String: AppMigration.Landing]]
    let data: [DataStep]
    /// Where it was read (its JSON Pointer), for the checks.
    let pointer: String

    static let members = ["from", "renameCoordinators", "renameRoutes", "removeRoutes", "data"]

    /// The migration, with the root coordinator of this version named `root` (whose data is the session data).
    func migration(root: String) -> AppMigration {
        var migration = AppMigration(from: from)
        for (old, new) in coordinators { migration = migration.renamingCoordinator(old, to: new) }
        for (coordinator, names) in routes {
            for (old, new) in names { migration = migration.renamingRoute(old, to: new, in: coordinator) }
        }
        for (coordinator, names) in removed {
            for (route, landing) in names {
                migration = migration.removingRoute(route, in: coordinator, landing: landing)
            }
        }
        if !data.isEmpty {
            let steps = data
            let oldRoot = coordinators.first { $0.value == root }?.key ?? root
            migration = migration.reshapingData(of: oldRoot) { data in try Self.reshape(data, steps) }
        }
        return migration
    }

    /// Why a data step could not run.
    struct ReshapeError: Error, CustomStringConvertible {
        let description: String
    }

    static func reshape(_ data: JSONValue, _ steps: [DataStep]) throws -> JSONValue {
        var data = data
        for step in steps {
            switch step {
            case .rename(let from, let to):
                guard let value = value(in: data, at: from) else { continue }
                data = try setting(data, at: from, to: nil)
                data = try setting(data, at: to, to: value)
            case .set(let path, let value):
                data = try setting(data, at: path, to: value)
            case .setDefault(let path, let value):
                if self.value(in: data, at: path) == nil { data = try setting(data, at: path, to: value) }
            case .remove(let path):
                data = try setting(data, at: path, to: nil)
            }
        }
        return data
    }

    private static func value(in data: JSONValue, at path: [String]) -> JSONValue? {
        path.reduce(Optional(data)) { $0?[$1] }
    }

    /// `data` with `value` at `path` (nil: removed); throws when something on the way is not an object.
    private static func setting(_ data: JSONValue, at path: [String], to value: JSONValue?) throws -> JSONValue {
        guard let key = path.first else { return value ?? .null }
        guard case .object(var members) = data else {
            throw ReshapeError(description: "the session data at '\(key)' is inside a value that is not an object")
        }
        if path.count == 1 {
            members[key] = value
        } else if let inner = members[key] {
            members[key] = try setting(inner, at: Array(path.dropFirst()), to: value)
        } else if value != nil {
            members[key] = try setting(.object([:]), at: Array(path.dropFirst()), to: value)
        }
        return .object(members)
    }
}
