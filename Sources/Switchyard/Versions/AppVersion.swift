/// An app at one of its versions: what a session runs, and what its state and restore documents name
/// (`"app": {"name": "todo", "version": 2}`).
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The app's name.
    public let name: String
    /// Its version: a whole number from 1, growing with each release that changes what sessions store.
    public let version: Int

    /// The app `name` at `version`.
    public init(name: String, version: Int) {
        self.name = name
        self.version = version
    }

    /// `todo@2`.
    public var description: String { "\(name)@\(version)" }

    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        (lhs.name, lhs.version) < (rhs.name, rhs.version)
    }

    /// The JSON form in documents: `{"name": …, "version": …}`.
    public var json: JSONValue {
        ["name": .string(name), "version": .number(Double(version))]
    }

    /// The app version that wrote a restore or state document of the app `name`: the one it names, or version 1
    /// when it names none (written before apps had versions); throws when its `app` member is malformed.
    public static func written(in document: JSONValue, app name: String) throws(NavigationError) -> AppVersion {
        try named(in: document) ?? AppVersion(name: name, version: 1)
    }

    /// The app version a restore or state document names; nil when it names none (a document written before apps
    /// had versions, which ran version 1 of its app); throws when its `app` member is malformed.
    public static func named(in document: JSONValue) throws(NavigationError) -> AppVersion? {
        guard let member = document["app"] else { return nil }
        guard case .string(let name)? = member["name"], case .number(let number)? = member["version"],
            let version = Int(exactly: number), version >= 1
        else {
            throw .restoreFailed("the document's app \(member.jsonString) is not {\"name\", \"version\"}")
        }
        return AppVersion(name: name, version: version)
    }
}
