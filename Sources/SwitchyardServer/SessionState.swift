import MicroHTTP
import Switchyard

/// Everything of a session that requests read and change; only ever touched under the session's lock.
struct SessionState {
    let id: String
    let engine: NavigationEngine
    var history: SessionHistory
    var replies: ReplyCache
    var subscribers: [ObjectIdentifier: EventStream] = [:]
    /// Set once the session ended (deleted or expired): no stream may subscribe any more.
    var ended = false
    let documents: DocumentCache

    init(id: String, engine: NavigationEngine, configuration: ServerConfiguration) {
        self.id = id
        self.engine = engine
        history = SessionHistory(configuration: configuration)
        replies = ReplyCache(configuration: configuration)
        documents = DocumentCache(session: id, maxBytes: configuration.maxDocumentBytes)
        documents.check(engine)
    }

    /// The state document, with `result` members when given; `keep` keeps a new rendering for later reads.
    func document(result: [String: JSONValue]? = nil, keep: Bool = false) -> [UInt8] {
        let base = documents.document(of: engine, keep: keep)
        guard let result else { return base }
        var bytes = base
        bytes.removeLast()  // the closing brace
        bytes.append(contentsOf: ",\"result\":".utf8)
        bytes.append(contentsOf: JSONValue.object(result).serialized())
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Records committed changes in the history and sends the new state to every subscriber, once, as a snapshot
    /// (a subscriber still behind on an older state gets this one instead). Returns whether anything was sent.
    ///
    /// Sending under the lock keeps every subscriber's events in version order, and cannot block or call back:
    /// an `EventStream` runs its close callbacks only after its connection ended, on a server thread.
    mutating func record(_ commits: [Commit], cause: SessionCause, time: Double) -> Bool {
        guard let last = commits.last else { return false }
        for commit in commits {
            let source = commit.cause == .pendingDeepLink ? SessionCause.pendingDeepLink : cause
            history.append(
                HistoryEntry(
                    version: commit.version, time: time, source: source.source, request: source.request,
                    visiblePath: commit.visiblePath))
        }
        guard !subscribers.isEmpty else { return false }
        let frame = EventFrame(
            id: String(last.version), event: "state", data: String(decoding: document(keep: true), as: UTF8.self),
            snapshot: true)
        for (key, stream) in subscribers where !stream.send(frame) {
            subscribers[key] = nil
        }
        return true
    }

    /// Adds a subscriber and sends it the current state at once.
    mutating func subscribe(_ stream: EventStream) {
        subscribers[ObjectIdentifier(stream)] = stream
        _ = stream.send(
            EventFrame(
                id: String(engine.version), event: "state",
                data: String(decoding: document(keep: true), as: UTF8.self), snapshot: true))
    }
}

/// Who caused a change, for the history: where it came from and the request body as received.
struct SessionCause: Sendable {
    var source: HistoryEntry.Source
    var request: [UInt8]

    /// A pending deep link completed after another change made it possible.
    static let pendingDeepLink = SessionCause(
        source: .deeplink, request: Array(#"{"pendingDeepLink":"completed"}"#.utf8))
}
