import Switchyard
import SwitchyardDefinitions
import SwitchyardJSON
import SwitchyardSessions

/// What was published through the admin API: the document a store's registry keeps (``AppRegistryStore``), which
/// every node of the store serves on top of the apps it was started with.
///
/// Published versions are immutable: a version number, once published, always means the same definition, and a
/// retired version's number is never used again (a session's history names the versions it ran).
struct PublishedApps: Codable, Equatable, Sendable {
    /// A published version of an app: its definition, as sent.
    struct Version: Codable, Equatable, Sendable {
        var app: String
        var version: Int
        /// `json` or `yaml`.
        var format: String
        var definition: String
        /// When it was published (seconds since 1970).
        var published: Double

        var identity: AppVersion { AppVersion(name: app, version: version) }
    }

    /// A version's share of new sessions.
    struct Share: Codable, Equatable, Sendable {
        var version: Int
        var weight: Int
    }

    /// The rollout of an app, as published (it takes the place of the one the node was started with).
    struct Rollout: Codable, Equatable, Sendable {
        var app: String
        var shares: [Share]

        var rollout: AppRollout {
            AppRollout(app: app, shares: shares.map { AppRollout.Share(version: $0.version, weight: $0.weight) })
        }
    }

    /// A retired version: its sessions that no migration takes start over on `fallback`, or are gone without one.
    struct Retired: Codable, Equatable, Sendable {
        var app: String
        var version: Int
        var fallback: Int?
        /// When it was retired (seconds since 1970).
        var retired: Double

        var identity: AppVersion { AppVersion(name: app, version: version) }
    }

    var versions: [Version] = []
    var rollouts: [Rollout] = []
    var retired: [Retired] = []
    /// When each app's rollout last moved new sessions (set or removed; seconds since 1970).
    var rolloutChanges: [String: Double]? = nil

    /// Nothing published.
    init() {}

    /// The document a registry keeps; an empty one is nothing published.
    init(document: [UInt8]) throws {
        guard !document.isEmpty else { return }
        self = try JSONValue(parsing: document).decode(PublishedApps.self)
    }

    /// The document to store.
    func document() throws -> [UInt8] {
        try JSONValue(encoding: self).serialized()
    }

    /// The published version `identity`.
    func version(_ identity: AppVersion) -> Version? {
        versions.first { $0.identity == identity }
    }

    /// The published rollout of `app`.
    func rollout(of app: String) -> Rollout? {
        rollouts.first { $0.app == app }
    }

    /// Sets (or, nil, removes) the published rollout of `app`, at `time` (nil: it gives new sessions where they went).
    mutating func setRollout(_ shares: [Share]?, of app: String, at time: Double?) {
        rollouts.removeAll { $0.app == app }
        if let shares { rollouts.append(Rollout(app: app, shares: shares)) }
        if let time { rolloutChanges = (rolloutChanges ?? [:]).merging([app: time]) { _, new in new } }
    }

    /// Whether `identity` was retired.
    func isRetired(_ identity: AppVersion) -> Bool {
        retired.contains { $0.identity == identity }
    }

    /// The fallbacks of the retired versions that have one.
    var fallbacks: [AppVersion: Int] {
        var fallbacks: [AppVersion: Int] = [:]
        for version in retired { fallbacks[version.identity] = version.fallback }
        return fallbacks
    }
}
