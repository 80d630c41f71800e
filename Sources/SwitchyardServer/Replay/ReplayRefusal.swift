import Switchyard

/// Why a candidate replay (`…/versions/{version}/replay`) or a rollout that requires a clean one was refused. Its
/// problems are rendered in one place (``ProblemRendering``).
enum ReplayRefusal: Error {
    /// The app version is not served (neither configured nor published): the served versions of the app.
    case notServed(AppVersion, served: [Int])
    /// Another replay is running on this node (replays run one at a time).
    case busy
    /// The version was not replayed on this node yet (`GET` of its latest report).
    case noReplayYet(AppVersion)
    /// A rollout requiring a clean replay would give the version more weight, and it has no replay on this node
    /// (`failure` nil) or its latest could not run (`failure` says why).
    case required(AppVersion, failure: String?)
    /// A rollout requiring a clean replay would give the version more weight, and its latest replay diverged:
    /// `diverged` of `replayed` sessions, the largest group's reason and example session.
    case diverged(AppVersion, diverged: Int, replayed: Int, reason: String?, example: String?)
}
