import Switchyard
import SwitchyardJSON

/// Everything of a session that requests read and change; only ever touched under the session's lock.
struct SessionState {
    let id: String
    /// The engine; replaced only when the session catches up with a version another node stored.
    private(set) var engine: NavigationEngine
    /// The latest version stored and made public (answered, streamed): a change that fails to store goes back to
    /// it, and a catch-up streams the versions after it.
    private(set) var announced: Int
    var replies: ReplyCache
    private(set) var subscribers: [ObjectIdentifier: any SessionSubscriber] = [:]
    /// The last state document sent to the subscribers (all of them have it): the next patch is made from it.
    /// Kept only while a stream follows the session.
    private var streamed: (version: Int, document: IndexedJSONText)?
    /// Set once the session ended (deleted or expired): no stream may subscribe any more.
    var ended = false
    let documents: DocumentCache
    /// The latest changes refused (not versions: in memory only).
    var refusals = RecentRefusals()
    /// The app's deep link to what the session shows, once worked out for its version (see `visibleLink(of:)`).
    var visibleLink: VisibleLink?
    /// The restore document the archive holds for the latest stored version, when known: the next version is
    /// stored as a delta from it (``StateDelta``).
    var storedState: (version: Int, state: [UInt8])?
    /// Changes submitted to the store and not yet known to be durable, and the requests waiting for them. Only
    /// changes run while there are any: reads, streams and every other request wait for them
    /// (``Session/withState(_:)``).
    var inFlight = InFlightWrites()

    init(id: String, engine: NavigationEngine, configuration: SessionConfiguration) {
        self.id = id
        self.engine = engine
        announced = engine.version
        replies = ReplyCache(configuration: configuration)
        documents = DocumentCache(session: id, maxBytes: configuration.maxDocumentBytes)
    }

    /// The state of a session read back from the archive (its history stays there).
    init(
        restoring stored: StoredSession, engine: NavigationEngine, configuration: SessionConfiguration, deltas: Bool
    ) {
        self.init(id: stored.id, engine: engine, configuration: configuration)
        adopt(engine, stored: stored, configuration: configuration, deltas: deltas)
    }

    /// The session as the archive stores it when it is created (its state is then the one stored: with
    /// `deltas`, the base of the next version's delta).
    mutating func stored(app: String, time: Double, deltas: Bool) throws -> StoredSession {
        let state = try engine.restoreDocument()
        storedState = deltas ? (engine.version, state) : nil
        return StoredSession(
            id: id, app: app, version: engine.version, state: state, lastAccess: time, used: false)
    }

    /// Checks a new session's first document as a change's commit is checked, keeping its rendering.
    func admitFirstDocument() -> Result<Void, ChangeRefusal> {
        documents.admitFirst(engine)
    }

    /// The state document, with `result` members when given; `keep` keeps a new rendering for later reads.
    func document(result: [String: JSONValue]? = nil, keep: Bool = false) -> [UInt8] {
        documents.document(of: engine, result: result, keep: keep)
    }

    /// The change `request` asks for, when it may run on this state: refused when the front end could not read the
    /// request, or when the session is not at a version the request allows.
    func admit(_ request: ChangeRequest) -> Result<SessionChange, ChangeRefusal> {
        switch (request.change, request.expectedVersions) {
        case (.failure(let error), _):
            .failure(.unreadable(error))
        case (.success, let wanted?) where !wanted.contains(engine.version):
            .failure(.staleVersion(current: engine.version, wanted: wanted, document: document()))
        case (.success(let change), _):
            .success(change)
        }
    }

    /// The session as it is now, for rendering an answer under its lock.
    var snapshot: SessionSnapshot {
        SessionSnapshot(session: id, engine: engine, documents: documents)
    }

    /// The history entries of committed changes (a pending deep link completed by a change is its own entry).
    func historyEntries(_ commits: [Commit], cause: SessionCause, time: Double) -> [HistoryEntry] {
        commits.map { commit in
            let source =
                switch commit.cause {
                case .pendingDeepLink: SessionCause.pendingDeepLink
                case .pendingRoute: SessionCause.pendingRoute
                case .direct: cause
                }
            var entry = HistoryEntry(
                version: commit.version, time: time, source: source.source, request: source.request,
                visiblePath: commit.visiblePath)
            entry.started = commit.started
            entry.finished = commit.finished
            entry.redirected = commit.redirected
            return entry
        }
    }

    /// The archive write for `commits` (and the reply remembered under their key): the new state and each
    /// version's history entry with the restore document its commit's check made. The current version's document
    /// is made again now when lifecycle hooks ran after its commit (they may have changed app data).
    func archiveWrite(
        _ entries: [HistoryEntry], commits: [Commit], reply: StoredReply?, deltas: Bool
    ) throws -> ArchiveWrite {
        let base = inFlight.last?.version ?? announced
        var earlier: [Int: [UInt8]] = [:]
        for commit in commits { earlier[commit.version] = commit.documents?.restore }
        let captured = commits.last?.ranLifecycleHooks ?? false ? nil : earlier[engine.version]
        let state = try captured ?? engine.restoreDocument()
        var previous = storedState
        let changes = entries.map { entry in
            let document = entry.version == engine.version ? state : earlier[entry.version] ?? []
            defer { previous = document.isEmpty ? nil : (entry.version, document) }
            return StoredChange(
                version: entry.version, time: entry.time, source: entry.source,
                request: entry.request, visiblePath: entry.visiblePath, state: document, started: entry.started,
                finished: entry.finished, redirected: entry.redirected,
                delta: deltas ? StateDelta.make(version: entry.version, state: document, previous: previous) : nil)
        }
        return .change(
            session: id, base: base, version: engine.version, state: state, history: changes, reply: reply)
    }

    /// Whether the engine (its tree and its coordinators' data) is what the archive holds for its version; false
    /// when app code changed data without a commit, or when the archive cannot say.
    func matchesStore(_ archive: any SessionArchive) -> Bool {
        if let last = inFlight.last {
            return last.version == engine.version && (try? engine.restoreDocument()) == last.state
        }
        guard let stored = try? archive.state(of: id, at: engine.version), let now = try? engine.restoreDocument()
        else { return false }
        return stored == now
    }

    /// Whether a change may run before the writes in flight are durable, and leave its own in flight: not while a
    /// stream follows the session (its events go out in version order, each once it is durable), nor while another
    /// request waits for them.
    var runsAhead: Bool { subscribers.isEmpty && inFlight.takesMore }

    /// Takes `write`, just submitted, in flight: the engine holds its state, and the next change builds on it.
    mutating func submitted(_ write: InFlightWrite, deltas: Bool) {
        inFlight.add(write)
        stored(write.state, deltas: deltas)
    }

    /// Settles the writes in flight whose outcome is known (``InFlightWrites/settle()``): a durable one is made
    /// public (its versions announced); a failed one ends this copy, which holds changes the store does not have
    /// (every later write fails too: its base version is not stored).
    mutating func settleInFlight() {
        for (write, outcome) in inFlight.settle() {
            switch outcome {
            case .success: if !ended { _ = announce(write.entries) }
            case .failure: ended = true
            }
        }
    }

    /// Makes stored changes public: sends the new state to every subscriber, once (``send(version:_:)``). Returns
    /// whether anything was sent.
    ///
    /// Sending under the lock keeps every subscriber's events in version order, and cannot block or call back
    /// (``SessionSubscriber``).
    mutating func announce(_ entries: [HistoryEntry]) -> Bool {
        guard let last = entries.last else { return false }
        announced = last.version
        guard !subscribers.isEmpty else { return false }
        send(version: last.version, document(keep: true))
        return true
    }

    /// Adds a subscriber and sends it `earlier` (the documents of the versions it missed: it reconnected with
    /// `Last-Event-ID`), then the current state unless `current` is false (it has that one). `base` is the document
    /// of the version it last saw, when known: the first of the others is then sent as a patch from it too.
    mutating func subscribe(
        _ subscriber: any SessionSubscriber, base: (version: Int, document: [UInt8])? = nil,
        earlier: [(version: Int, document: [UInt8])] = [], current: Bool = true
    ) {
        subscribers[ObjectIdentifier(subscriber)] = subscriber
        var sent = base.map { (version: $0.version, document: IndexedJSONText($0.document)) }
        var documents = earlier
        if current { documents.append((engine.version, document(keep: true))) }
        for (version, bytes) in documents {
            let update = StreamUpdate(version: version, document: IndexedJSONText(bytes), base: sent)
            let patch = subscriber.updates == .patch ? update.patch() : nil
            _ = subscriber.send(patch ?? update.snapshot)
            sent = (version, update.document)
        }
        // Every subscriber has the current version now; keep its document (and what a diff learnt of it).
        if streamed?.version != engine.version {
            streamed = sent?.version == engine.version ? sent : (engine.version, IndexedJSONText(document(keep: true)))
        }
    }

    /// Removes a subscriber (its stream ended).
    mutating func unsubscribe(_ subscriber: any SessionSubscriber) {
        subscribers[ObjectIdentifier(subscriber)] = nil
        if subscribers.isEmpty { streamed = nil }
    }

    /// Removes every subscriber and returns them (the session ended).
    mutating func removeSubscribers() -> [any SessionSubscriber] {
        defer {
            subscribers.removeAll()
            streamed = nil
        }
        return Array(subscribers.values)
    }

    /// Sends a version's state document to every subscriber, as a patch from the last one sent to those who take
    /// patches; drops those whose stream has ended.
    mutating func send(version: Int, _ document: [UInt8]) {
        let update = StreamUpdate(version: version, document: IndexedJSONText(document), base: streamed)
        let patch = subscribers.values.contains { $0.updates == .patch } ? update.patch() : nil
        // The whole document's frame is made once, and only if a subscriber gets it.
        var made: StreamFrame?
        func snapshot() -> StreamFrame {
            if let made { return made }
            let frame = update.snapshot
            made = frame
            return frame
        }
        for (key, subscriber) in subscribers {
            let delivered =
                if let patch, subscriber.updates == .patch {
                    subscriber.send(patch, orWhenBehind: snapshot())
                } else {
                    subscriber.send(snapshot())
                }
            if !delivered { subscribers[key] = nil }
        }
        streamed = subscribers.isEmpty ? nil : (version, update.document)
    }

    /// Takes the state another node stored (a newer version, or the stored one after a change here could not be
    /// stored): its engine (made from `stored`) and remembered replies. The caller streams it.
    mutating func adopt(
        _ engine: NavigationEngine, stored: StoredSession, configuration: SessionConfiguration, deltas: Bool
    ) {
        self.engine = engine
        announced = engine.version
        storedState = deltas && stored.version == engine.version ? (stored.version, stored.state) : nil
        documents.beginChange()
        replies = ReplyCache(configuration: configuration)
        let time = configuration.now()
        for reply in stored.replies { remember(reply, time: time) }
    }

    /// The archive stored a write whose current state was `state`: with `deltas`, the next version's delta is
    /// made from it.
    mutating func stored(_ state: [UInt8], deltas: Bool) {
        storedState = deltas ? (engine.version, state) : nil
    }

    /// Keeps a stored answer for replay under its key: whole, or as what rebuilds it (``ReplyRebuild``).
    mutating func remember(_ reply: StoredReply, time: Double) {
        let rebuild = ReplyRebuild(storedBody: reply.body)
        let whole = rebuild == nil ? SessionReply(status: reply.status, headers: reply.headers, body: reply.body) : nil
        replies.store(
            .init(fingerprint: reply.fingerprint, reply: whole, rebuild: rebuild, time: time), for: reply.key)
    }
}

/// Who caused a change, for the history: where it came from and the request body as received.
struct SessionCause: Sendable {
    var source: HistorySource
    var request: [UInt8]

    /// A pending deep link completed after another change made it possible.
    static let pendingDeepLink = SessionCause(
        source: .deeplink, request: Array(#"{"pendingDeepLink":"completed"}"#.utf8))

    /// A guarded route entered after another change made its guard allow it.
    static let pendingRoute = SessionCause(source: .guard, request: Array(#"{"pendingRoute":"entered"}"#.utf8))
}
