/// Why an admin change of the published apps (``AppReleases``) was refused; nothing was changed.
package enum ReleaseRefusal: Error {
    /// The store keeps no published apps (an archive without an ``AppRegistryStore``).
    case noRegistry
    /// No such app or published version: what is missing.
    case notFound(String)
    /// The request does not fit the path (a definition of another app or version), or names a version that cannot
    /// serve there (a fallback of another app): why.
    case invalid(String)
    /// The definition has errors: those findings (``AppCompiler``).
    case invalidDefinition([DefinitionFinding])
    /// With it, the apps cannot work together (a migration to a missing route, a rollout of a version not served).
    case invalidApps([String])
    /// The change contradicts what is published or configured (a version number taken, a configured version, a
    /// version taking new sessions): why.
    case conflict(String)
    /// Stored sessions would be lost (`count` of them, not lost before): what the dry run found.
    case sessionsWouldBeLost(MigrationReport, count: Int)
    /// The app's rollout changed less than a few polls ago: a node may still give the version new sessions; retry
    /// in `seconds`.
    case rolloutSettling(seconds: Int)
    /// Another admin change was stored first: read again and retry.
    case changedMeanwhile
    /// The request named (`If-Match`) a generation of the published apps that is not the stored one (`current`).
    case staleGeneration(current: Int)
    /// The store failed (the incident is logged).
    case store(StoreHealth.Incident)
}
