import Switchyard
import Synchronization

/// One user session: its engine, history, stream subscribers and idempotency replies (``SessionState``), behind
/// one lock, and its activity, which expiry reads without that lock.
///
/// Requests on one session are serialized, except that a change may run while the store commits the change before
/// it (nothing else sees that one until it is durable: ``withState(_:)``); different sessions run in parallel on the
/// server's threads.
package final class Session: Sendable {
    /// What expiry reads while requests may hold the session's lock.
    struct Activity: Sendable {
        /// When a request last used the session.
        var lastAccess: Double
        /// The last access the archive knows of (and below, whether it knows the session was used).
        var recordedAccess: Double
        /// Open event streams: a session someone follows does not expire.
        var subscribers = 0
        /// The newest version another node announced for the session (0: none heard since the copy was made).
        var heard = 0
        /// Whether any request named the session after the one that created it.
        var used = false
        var recordedUsed = false
        // The flags come last: no padding between the words (this is kept for every session in memory).
    }

    package let id: String
    /// The name of the app it runs.
    package let app: String
    /// Which set of served apps its engine was made by (``LiveSessions/reload(_:checking:)`` counts them): a
    /// session made before a reload never becomes live after it.
    let generation: Int
    /// The app version its engine ran when the session was made or read back.
    private let madeBy: AppVersion
    private let state: Mutex<SessionState>
    private let activity: Mutex<Activity>
    private let now: @Sendable () -> Double
    /// What bounds the kept screen renderings of all sessions: told, once this session's lock is released, about
    /// the renderings a turn under it wrote.
    private let renderingBudget: RenderingBudget?

    init(
        id: String, app: String, engine: sending NavigationEngine, configuration: SessionConfiguration,
        generation: Int = 0, renderingBudget: RenderingBudget? = nil
    ) {
        self.renderingBudget = renderingBudget
        self.id = id
        self.app = app
        self.generation = generation
        madeBy = engine.app ?? AppVersion(name: app, version: 1)
        state = Mutex(SessionState(id: id, engine: engine, configuration: configuration))
        let time = configuration.now()
        activity = Mutex(Activity(lastAccess: time, recordedAccess: time))
        now = configuration.now
    }

    /// A session read back from the archive, with its history and remembered replies; `deltas`: whether the
    /// archive keeps deltas (the session then keeps its stored document as the next one's base).
    init(
        restoring stored: StoredSession, engine: sending NavigationEngine, configuration: SessionConfiguration,
        generation: Int = 0, deltas: Bool = false, renderingBudget: RenderingBudget? = nil
    ) {
        self.renderingBudget = renderingBudget
        id = stored.id
        app = stored.app
        self.generation = generation
        madeBy = engine.app ?? AppVersion(name: stored.app, version: 1)
        state = Mutex(SessionState(restoring: stored, engine: engine, configuration: configuration, deltas: deltas))
        activity = Mutex(
            Activity(
                lastAccess: configuration.now(), recordedAccess: stored.lastAccess, used: stored.used,
                recordedUsed: stored.used))
        now = configuration.now
    }

    /// Use the archive does not know of (reads, open streams): the touch to write, if any. Call
    /// ``recorded(_:)`` once the archive has it.
    func unrecordedActivity(now: Double) -> Activity? {
        activity.withLock { activity in
            var touch = activity
            touch.lastAccess = activity.subscribers > 0 ? now : activity.lastAccess
            guard touch.lastAccess > activity.recordedAccess || activity.used != activity.recordedUsed else {
                return nil
            }
            return touch
        }
    }

    /// The archive stored this use (from ``unrecordedActivity(now:)``).
    func recorded(_ touch: Activity) {
        activity.withLock { activity in
            activity.recordedAccess = max(activity.recordedAccess, touch.lastAccess)
            activity.recordedUsed = activity.recordedUsed || touch.used
        }
    }

    /// Runs `body` with exclusive access to the session's state once no write of it is in flight (it never sees a
    /// version before the store has it; after a write failed, the copy has ended: ``SessionState/ended``); counts
    /// as activity. The count of streams that expiry reads is updated under the same
    /// lock, so concurrent subscribes and closes cannot leave it stale.
    func withState<Result: Sendable>(_ body: (inout SessionState) throws -> Result) rethrows -> Result {
        touch()
        return try afterWrites(body)
    }

    /// Runs `body` with exclusive access to the session's state, writes in flight or not (a change, which may run
    /// ahead of the store: ``ChangePipeline``); counts as activity.
    func changing<Result: Sendable>(_ body: (inout SessionState) throws -> Result) rethrows -> Result {
        touch()
        var written: ScreenRenderings?
        defer { account(written) }
        return try state.withLock { state in
            defer {
                recordSubscribers(state.subscribers.count)
                written = state.documents.takeWrittenRenderings()
            }
            state.settleInFlight()
            return try body(&state)
        }
    }

    /// Tells the rendering budget what a turn under the lock wrote (the lock released).
    private func account(_ written: ScreenRenderings?) {
        if let written, let renderingBudget { renderingBudget.account(written) }
    }

    /// Runs `body` under the lock once the writes in flight are settled, waiting for them without the lock (and
    /// holding back changes that would run ahead of the store meanwhile, so that the wait ends).
    private func afterWrites<Result: Sendable>(_ body: (inout SessionState) throws -> Result) rethrows -> Result {
        var waited = false
        var written: ScreenRenderings?
        defer { account(written) }
        while true {
            let turn: Turn<Result> = try state.withLock { state in
                defer {
                    recordSubscribers(state.subscribers.count)
                    written = state.documents.takeWrittenRenderings() ?? written
                }
                if waited { state.inFlight.stopWaiting() }
                state.settleInFlight()
                if let submission = state.inFlight.wait() { return .wait(submission) }
                return .ran(try body(&state))
            }
            switch turn {
            case .ran(let result): return result
            case .wait(let submission):
                _ = submission.awaitOutcome()
                waited = true
            }
        }
    }

    /// What a turn under the lock came to: the body ran, or a write in flight must be waited for first.
    private enum Turn<Value: Sendable>: Sendable {
        case ran(Value)
        case wait(any ArchiveSubmission)
    }

    /// The session's activity, for expiry (safe to read from any thread).
    var currentActivity: Activity {
        activity.withLock { $0 }
    }

    /// Another node announced that it stored `version` of the session.
    func hear(_ version: Int) {
        activity.withLock { $0.heard = max($0.heard, version) }
    }

    /// A request named the session: from now on the idle TTL applies, not the shorter one for unused sessions.
    func markUsed() {
        activity.withLock { $0.used = true }
    }

    /// The current time on the configured clock.
    package var time: Double { now() }

    /// Adds a stream subscriber and sends it the current state at once, after the documents `missed` gives for
    /// the versions it missed since version `seen` (none by default; a subscriber that saw the current version is
    /// sent nothing until the next); a session that has ended closes it. `missed` may start with the document of
    /// `seen` itself: the next one is then sent as a patch from it.
    package func subscribe(
        _ subscriber: any SessionSubscriber, after seen: Int? = nil, missed: [(version: Int, document: [UInt8])] = []
    ) {
        let ended = withState { state in
            guard !state.ended else { return true }
            var earlier = missed
            let base = earlier.first.flatMap { $0.version == seen ? $0 : nil }
            if base != nil { earlier.removeFirst() }
            state.subscribe(subscriber, base: base, earlier: earlier, current: seen != state.engine.version)
            return false
        }
        if ended { subscriber.close() }
    }

    /// Runs `body` with the session as it is now (under its lock; counts as activity), for reads; throws
    /// ``ChangeRefusal/sessionMoved`` when the session left memory while the request waited for it.
    package func read<Result: Sendable>(_ body: (SessionSnapshot) throws -> Result) throws -> Result {
        try withState { state in
            if state.ended { throw ChangeRefusal.sessionMoved }
            return try body(state.snapshot)
        }
    }

    /// The app version it runs now, unless a request holds the session: then the one it was read back or created
    /// with (for the metrics, which must not wait behind a change waiting for the store).
    var appVersionIfIdle: AppVersion {
        (state.withLockIfAvailable { $0.engine.app } ?? nil) ?? madeBy
    }

    /// The app version it runs now (a migration moves it on), without counting as activity.
    package var appVersion: AppVersion {
        catchingUp { $0.engine.app } ?? AppVersion(name: app, version: 1)
    }

    /// The latest refusals it answered, read under its lock without waiting for its writes in flight (analytics
    /// reads every session's and must not wait for the store).
    var keptRefusals: [RecentRefusals.Refusal] {
        state.withLock { $0.refusals.entries }
    }

    /// The version in memory, without counting as activity.
    package var version: Int {
        catchingUp { $0.engine.version }
    }

    /// Runs `body` with exclusive access to the session's state without counting as activity (this node catching
    /// up with a change another one made).
    func catchingUp<Result: Sendable>(_ body: (inout SessionState) -> Result) -> Result {
        afterWrites(body)
    }

    /// Returns once no write of the session is in flight: a copy leaving memory stays reachable until then, so that
    /// the session is never read back from the store before writes it will acknowledge are there.
    func awaitWrites() {
        afterWrites { _ in }
    }

    /// Removes a stream subscriber (from its close callback); the session's idle time starts again now.
    package func unsubscribe(_ subscriber: any SessionSubscriber) {
        let time = now()
        state.withLock { state in
            state.unsubscribe(subscriber)
            let count = state.subscribers.count
            activity.withLock {
                $0.subscribers = count
                $0.lastAccess = time
            }
        }
    }

    /// Ends the session's streams; a stream that subscribes later is closed at once. Not a use of the session (it
    /// is how expiry ends one).
    func closeStreams() {
        // Not after the writes in flight: they may be what ended the session.
        let subscribers = state.withLock { state in
            state.ended = true
            defer { recordSubscribers(0) }
            return state.removeSubscribers()
        }
        for subscriber in subscribers { subscriber.close() }
    }

    /// Records how many streams follow the session (state lock held).
    private func recordSubscribers(_ count: Int) {
        activity.withLock { $0.subscribers = count }
    }

    private func touch() {
        let time = now()
        activity.withLock { $0.lastAccess = time }
    }
}
