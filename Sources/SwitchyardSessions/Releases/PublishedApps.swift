import Switchyard
import SwitchyardJSON

/// What was published through the admin API: the document a store's registry keeps (``AppRegistryStore``), which
/// every node of the store serves on top of the apps it was started with.
///
/// Published versions are immutable: a version number, once published, always means the same definition, and a
/// retired version's number is never used again (a session's history names the versions it ran).
package struct PublishedApps: Codable, Equatable, Sendable {
    /// A published version of an app: its definition, as sent.
    package struct Version: Codable, Equatable, Sendable {
        /// The app's name.
        package var app: String
        /// Its version number.
        package var version: Int
        /// `json` or `yaml`.
        package var format: String
        /// The definition's text.
        package var definition: String
        /// When it was published (seconds since 1970).
        package var published: Double

        /// The app version it is.
        package var identity: AppVersion { AppVersion(name: app, version: version) }
    }

    /// A version's share of new sessions.
    package struct Share: Codable, Equatable, Sendable {
        /// The version.
        package var version: Int
        /// Its weight among the listed versions (0: pinned, no new sessions).
        package var weight: Int

        /// `version` takes `weight` parts of new sessions (0: pinned).
        package init(version: Int, weight: Int) {
            self.version = version
            self.weight = weight
        }
    }

    /// The rollout of an app, as published (it takes the place of the one the node was started with).
    package struct Rollout: Codable, Equatable, Sendable {
        /// The app.
        package var app: String
        /// Its listed versions, in the order given.
        package var shares: [Share]

        /// The rollout served.
        package var rollout: AppRollout {
            AppRollout(app: app, shares: shares.map { AppRollout.Share(version: $0.version, weight: $0.weight) })
        }
    }

    /// A retired version: its sessions that no migration takes start over on `fallback`, or are gone without one.
    package struct Retired: Codable, Equatable, Sendable {
        /// The app's name.
        package var app: String
        /// The retired version's number.
        package var version: Int
        /// The version its sessions start over on, if any.
        package var fallback: Int?
        /// When it was retired (seconds since 1970).
        package var retired: Double

        /// The app version it was.
        package var identity: AppVersion { AppVersion(name: app, version: version) }
    }

    /// The published versions, in the order they were published.
    package var versions: [Version] = []
    /// The published rollouts.
    package var rollouts: [Rollout] = []
    /// The retired versions.
    package var retired: [Retired] = []
    /// When each app's rollout last moved new sessions (set or removed; seconds since 1970).
    package var rolloutChanges: [String: Double]? = nil

    /// Nothing published.
    package init() {}

    /// The document a registry keeps; an empty one is nothing published.
    package init(document: [UInt8]) throws {
        guard !document.isEmpty else { return }
        self = try JSONValue(parsing: document).decode(PublishedApps.self)
    }

    /// The document to store.
    package func document() throws -> [UInt8] {
        try JSONValue(encoding: self).serialized()
    }

    /// The published version `identity`.
    package func version(_ identity: AppVersion) -> Version? {
        versions.first { $0.identity == identity }
    }

    /// The published rollout of `app`.
    package func rollout(of app: String) -> Rollout? {
        rollouts.first { $0.app == app }
    }

    /// Sets (or, nil, removes) the published rollout of `app`, at `time` (nil: it gives new sessions where they went).
    package mutating func setRollout(_ shares: [Share]?, of app: String, at time: Double?) {
        rollouts.removeAll { $0.app == app }
        if let shares { rollouts.append(Rollout(app: app, shares: shares)) }
        if let time { rolloutChanges = (rolloutChanges ?? [:]).merging([app: time]) { _, new in new } }
    }

    /// Whether `identity` was retired.
    package func isRetired(_ identity: AppVersion) -> Bool {
        retired.contains { $0.identity == identity }
    }

    /// The fallbacks of the retired versions that have one.
    package var fallbacks: [AppVersion: Int] {
        var fallbacks: [AppVersion: Int] = [:]
        for version in retired { fallbacks[version.identity] = version.fallback }
        return fallbacks
    }
}
