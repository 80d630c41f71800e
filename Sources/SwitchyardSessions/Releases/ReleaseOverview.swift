import Switchyard

/// What a node serves now, app by app, and where each version comes from (``AppReleases/overview()``): what
/// `GET /api/admin/apps` lists.
package struct ReleaseOverview: Sendable {
    /// A served app: its versions, its rollout and its retired versions.
    package struct App: Sendable {
        /// The app's name.
        package let name: String
        /// Its served versions, oldest first.
        package let versions: [Version]
        /// Which versions new sessions get (``ServedApps/rollout(of:)``).
        package let rollout: [AppRollout.Share]
        /// Its retired versions.
        package let retired: [PublishedApps.Retired]
    }

    /// A served version and where it comes from.
    package struct Version: Sendable {
        /// Its number.
        package let number: Int
        /// Where it comes from; nil when it is neither configured nor published any more (the served apps are
        /// changing while the overview is read).
        package let source: Source?
    }

    /// Where a served version comes from.
    package enum Source: Sendable {
        /// The nodes' configuration (a Swift app or an `--app` definition).
        case configured
        /// The admin API: that published version.
        case published(PublishedApps.Version)
    }

    /// The generation of the published apps served.
    package let generation: Int
    /// Every served app, the default first.
    package let apps: [App]

    /// The overview of `served`, whose versions in `configured` come from the configuration and the others from
    /// `published` (at `generation`).
    init(generation: Int, published: PublishedApps, served: ServedApps, configured: Set<AppVersion>) {
        self.generation = generation
        apps = served.names.map { name in
            App(
                name: name,
                versions: served.versions(of: name).map { app in
                    Version(
                        number: app.version,
                        source: configured.contains(app.identity)
                            ? .configured : published.version(app.identity).map(Source.published))
                },
                rollout: served.rollout(of: name)?.shares ?? [],
                retired: published.retired.filter { $0.app == name })
        }
    }
}
