import Switchyard

/// One admin change of what is published: read, edited, checked with every served app, stored by compare-and-set,
/// served.
extension AppReleases {
    /// Reads the registry, lets `edit` change what is published (seeing the apps served now and the configured
    /// versions), checks the apps that would then be served, lets `checking` compare them with those served now,
    /// stores the result if nothing else was stored meanwhile (and the generation is `expected`, when given), and
    /// serves it. `adding`: apps made already from definitions the edit publishes. `what` and `requester` are
    /// logged.
    func change(
        _ what: String, expecting expected: Int?, by requester: String, adding: [AppVersion: NavigationApp] = [:],
        _ edit: (inout PublishedApps, ServedApps, Set<AppVersion>) throws(ReleaseRefusal) -> Void,
        checking: (ServedApps, ServedApps) throws(ReleaseRefusal) -> Void = { _, _ throws(ReleaseRefusal) in }
    ) throws(ReleaseRefusal) {
        guard let registry else { throw .noRegistry }
        let (stored, read) = try readPublished(from: registry)
        if let expected, expected != stored.generation { throw .staleGeneration(current: stored.generation) }
        apply(read, generation: stored.generation)  // the edit starts from what every node serves
        let (configured, rollouts, compiled) = state.withLock {
            ($0.configured, $0.configuredRollouts, $0.compiled)
        }
        let current = sessions.servedApps.apps
        var published = read
        try edit(&published, current, Set(configured.map(\.identity)))
        guard published != read else { return }
        let made = try compile(published, reusing: compiled.merging(adding) { kept, _ in kept }, strict: true)
        let planned = try plan(configured: configured, rollouts: rollouts, published: published, compiled: made)
        try checking(current, planned)
        try store(published, in: registry, replacing: stored.generation)
        logger.notice(
            "published apps changed: \(what)",
            metadata: ["generation": "\(stored.generation + 1)", "by": "\(requester)"])
        apply(published, generation: stored.generation + 1)
    }

    /// The registry's document and what it publishes; a store that fails is an incident.
    private func readPublished(
        from registry: any AppRegistryStore
    ) throws(ReleaseRefusal) -> (StoredRegistry, PublishedApps) {
        do {
            let stored = try registry.readRegistry()
            return (stored, try PublishedApps(document: stored.document))
        } catch let error as ArchiveError {
            throw .store(sessions.health.failed(error, during: "read the published apps"))
        } catch {
            throw .store(sessions.health.failed(.unreadable("\(error)"), during: "read the published apps"))
        }
    }

    /// The apps every node would serve with `published` (made into `compiled`): refused unless they work together.
    private func plan(
        configured: [NavigationApp], rollouts: [AppRollout], published: PublishedApps,
        compiled: [AppVersion: NavigationApp]
    ) throws(ReleaseRefusal) -> ServedApps {
        let planned: ServedApps
        do {
            let publishedRollouts = published.rollouts.map(\.rollout)
            planned = try ServedApps(
                Self.apps(configured: configured, published: published, compiled: compiled),
                rollouts: rollouts.filter { rollout in !publishedRollouts.contains { $0.app == rollout.app } }
                    + publishedRollouts,
                fallbacks: published.fallbacks)
        } catch {
            throw .invalidApps([error.description])
        }
        let errors = Self.errors(checking: planned.apps)
        if !errors.isEmpty { throw .invalidApps(errors) }
        return planned
    }

    /// Stores `published` in `registry` in place of generation `generation`: refused when it is too large or
    /// another change was stored first.
    private func store(
        _ published: PublishedApps, in registry: any AppRegistryStore, replacing generation: Int
    ) throws(ReleaseRefusal) {
        let document: [UInt8]
        do {
            document = try published.document()
        } catch {
            throw .invalidApps(["the published apps cannot be written: \(error)"])
        }
        guard document.count <= Self.maxDocumentBytes else {
            throw .conflict(
                "the published apps would take \(document.count) bytes, more than \(Self.maxDocumentBytes): retire "
                    + "versions no session needs first")
        }
        do throws(ArchiveError) {
            try registry.storeRegistry(document, replacing: generation)
        } catch .conflict {
            throw .changedMeanwhile
        } catch {
            throw .store(sessions.health.failed(error, during: "store the published apps"))
        }
    }
}
