import Switchyard

/// An app declared as data (JSON or YAML): its name, its root coordinator, its coordinators and screens, the
/// session data it starts with, and its deep links. docs/app-definitions.md describes the format;
/// `Public/schema/app-definition.json` is its JSON Schema.
///
/// ```swift
/// let loaded = AppDefinition.load(json: text)   // a definition, or diagnostics
/// let app = try NavigationApp(definition: text)  // checked: throws DefinitionFailure with every error found
/// ```
public struct AppDefinition: Sendable {
    /// The app's name (what `POST /api/sessions {"app": …}` selects).
    public let name: String
    /// The app's version (1 unless the definition says).
    public let version: Int
    /// How sessions of earlier versions become sessions of this one.
    let migrations: [MigrationDefinition]
    let root: String
    let data: JSONValue
    /// In name order.
    let coordinators: [CoordinatorDefinition]
    /// In name order.
    let screens: [ScreenDefinition]
    let deepLinks: [DeepLinkDefinition]

    static let members = [
        "$schema", "name", "version", "migrations", "root", "data", "coordinators", "screens", "deepLinks",
    ]

    /// The most coordinators and screens, routes (all coordinators together) and deep links a definition may have:
    /// far above what an app needs, and low enough that checking one stays quick.
    static let limits = (namedParts: 1_000, routes: 2_000, deepLinks: 200)

    /// Reads a definition from its JSON value: the definition, with every finding; nil when it could not be read
    /// (the findings say why).
    static func read(_ value: JSONValue, _ reader: DefinitionReader) -> AppDefinition? {
        guard
            let members = reader.object(
                value, at: "", "an app definition", allowed: members, required: ["name", "root", "coordinators"])
        else { return nil }
        let named = (members["coordinators"]?.objectValue?.count ?? 0) + (members["screens"]?.objectValue?.count ?? 0)
        let routes = (members["coordinators"]?.objectValue?.values ?? [:].values).reduce(0) {
            $0 + ($1["routes"]?.objectValue?.count ?? 0)
        }
        let links: Int = if case .array(let list)? = members["deepLinks"] { list.count } else { 0 }
        for (count, limit, what, pointer) in [
            (named, limits.namedParts, "coordinators and screens", ""),
            (routes, limits.routes, "routes", "/coordinators"),
            (links, limits.deepLinks, "deep links", "/deepLinks"),
        ] where count > limit {
            reader.error("tooLarge", at: pointer, "the definition has \(count) \(what), more than \(limit)")
            return nil
        }
        let name = reader.name(members["name"], at: "/name", "app name")
        let version =
            members["version"].map { reader.integer($0, at: "/version", "version", in: 1...Int(Int32.max)) } ?? 1
        let migrations =
            reader.array(members["migrations"], at: "/migrations", "migrations")?.enumerated().compactMap {
                MigrationDefinition.read($1, at: Pointer.append("/migrations", $0), version: version ?? 1, reader)
            } ?? []
        let root = reader.name(members["root"], at: "/root", "coordinator name")
        var data = JSONValue.object([:])
        if let initial = members["data"] {
            if case .object = initial {
                data = initial
            } else {
                reader.error("wrongType", at: "/data", "expected an object (the session data it starts with)")
            }
        }
        let coordinators = reader.named(members["coordinators"], at: "/coordinators", "coordinators") {
            CoordinatorDefinition.read($0, $1, at: $2, reader)
        }
        let screens = reader.named(members["screens"], at: "/screens", "screens") {
            ScreenDefinition.read($0, $1, at: $2, reader)
        }
        let deepLinks =
            reader.array(members["deepLinks"], at: "/deepLinks", "deep links")?.enumerated().compactMap {
                DeepLinkDefinition.read($1, at: Pointer.append("/deepLinks", $0), reader)
            } ?? []
        guard let name, let root, let version else { return nil }
        return AppDefinition(
            name: name, version: version, migrations: migrations, root: root, data: data, coordinators: coordinators,
            screens: screens, deepLinks: deepLinks)
    }

    func coordinator(_ name: String) -> CoordinatorDefinition? {
        coordinators.first { $0.name == name }
    }

    func screen(_ name: String) -> ScreenDefinition? {
        screens.first { $0.name == name }
    }
}
