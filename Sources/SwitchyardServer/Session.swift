import Foundation
import MicroHTTP
import Switchyard
import Synchronization

/// One user session: an engine, its history, its stream subscribers and its idempotency keys.
///
/// Every access goes through ``withLock(_:)``: requests on one session are serialized, different sessions run in
/// parallel on the server's threads.
final class Session: @unchecked Sendable {
    // @unchecked: the engine and all mutable state are only touched while `lock` is held.

    /// What the session remembers of a response, to replay it for a retried idempotency key.
    struct StoredResponse: Sendable {
        /// ``RequestFingerprint`` of the request answered: the same key with another request is refused.
        let fingerprint: UInt64
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]

        /// Bytes it holds, with its key, as counted against ``ServerConfiguration/maxIdempotencyBytes``.
        func cost(key: String) -> Int {
            body.count + key.utf8.count + headers.reduce(64) { $0 + $1.0.utf8.count + $1.1.utf8.count + 32 }
        }
    }

    /// Who caused the changes being committed now, for the history.
    struct Cause {
        var source: HistoryEntry.Source
        var request: [UInt8]
    }

    /// What expiry reads while requests may hold the session's lock.
    struct Activity: Sendable {
        /// When a request last used the session.
        var lastAccess: Double
        /// Whether any request named the session after the one that created it.
        var used = false
        /// Open event streams: a session someone follows does not expire.
        var subscribers = 0
    }

    let id: String
    private let lock = NSLock()
    private let engine: NavigationEngine
    private let configuration: ServerConfiguration
    private var history: [HistoryEntry] = []
    private var historyBytes = 0
    private var subscribers: [ObjectIdentifier: EventStream] = [:]
    private var idempotency: [String: StoredResponse] = [:]
    private var idempotencyOrder: [String] = []
    private var idempotencyBytes = 0
    private var cause = Cause(source: .api, request: Array("null".utf8))
    private let now: @Sendable () -> Double
    private let activity: Mutex<Activity>
    private var onBroadcast: (@Sendable () -> Void)?
    /// The state document of `engine.version`, rendered once for the response, the broadcast and reads.
    private var cachedDocument: [UInt8]?

    init(
        id: String, engine: NavigationEngine, configuration: ServerConfiguration,
        onBroadcast: (@Sendable () -> Void)? = nil
    ) {
        self.id = id
        self.engine = engine
        self.configuration = configuration
        now = configuration.now
        activity = Mutex(Activity(lastAccess: configuration.now()))
        self.onBroadcast = onBroadcast
        engine.onCommit = { [unowned self] commit in self.committed(commit) }
        engine.commitCheck = { [unowned self] engine in try self.checkDocumentSize(engine) }
    }

    /// Runs `body` with exclusive access to the engine.
    func withLock<Result>(_ body: (NavigationEngine) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        touch()
        return try body(engine)
    }

    /// The session's activity, for expiry (safe to read from any thread).
    var currentActivity: Activity {
        activity.withLock { $0 }
    }

    /// A request named the session: from now on the idle TTL applies, not the shorter one for unused sessions.
    func markUsed() {
        activity.withLock { $0.used = true }
    }

    private func touch() {
        let time = now()
        activity.withLock { $0.lastAccess = time }
    }

    /// Renders the document of the change about to commit and refuses it over the session's limit (lock held; the
    /// engine calls it before it commits, so a refusal rolls the change back). The rendering is kept: it is the
    /// document of the new version, for the response, the broadcast and later reads.
    private func checkDocumentSize(_ engine: NavigationEngine) throws {
        let document = engine.stateDocument(session: id)
        guard document.count <= configuration.maxDocumentBytes else {
            cachedDocument = nil
            var problem = Problem(
                status: 409, code: "documentTooLarge", title: "Session limit reached",
                detail: "the change would make the state document \(document.count) bytes, over the session's limit "
                    + "of \(configuration.maxDocumentBytes); nothing was applied (go back or dismiss something first)")
            problem.extra = [("limit", Array(String(configuration.maxDocumentBytes).utf8))]
            throw problem
        }
        cachedDocument = document
    }

    /// Attributes the commits made inside `body` to `source` (for the history). Call with the lock held.
    func attributing<Result>(
        _ source: HistoryEntry.Source, request: [UInt8], _ body: () throws -> Result
    ) rethrows
        -> Result
    {
        cause = Cause(source: source, request: request)
        defer { cause = Cause(source: .api, request: Array("null".utf8)) }
        return try body()
    }

    /// The state document (call with the lock held), with `result` members when given.
    ///
    /// A change renders its document once, just before it commits (``checkDocumentSize(_:)``), for its response
    /// and broadcast; reads (`GET`, streams) keep a rendered document until the next change request calls
    /// ``documentMayHaveChanged()`` (app code runs only inside those). After a change's response,
    /// ``releaseDocumentUnlessFollowed()`` drops it when nobody follows the session: an idle session holds no
    /// rendered copy.
    func document(result: [String: JSONValue]? = nil, keep: Bool = false) -> [UInt8] {
        let base: [UInt8]
        if let cachedDocument {
            base = cachedDocument
        } else {
            base = engine.stateDocument(session: id)
            if keep { cachedDocument = base }
        }
        guard let result else { return base }
        var bytes = base
        bytes.removeLast()  // the closing brace
        bytes.append(contentsOf: ",\"result\":".utf8)
        bytes.append(contentsOf: JSONValue.object(result).serialized())
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Forgets the rendered document (call with the lock held, before app code runs).
    func documentMayHaveChanged() {
        cachedDocument = nil
    }

    /// Drops the rendered document unless a stream follows the session (lock held, after a change's response).
    func releaseDocumentUnlessFollowed() {
        if subscribers.isEmpty { cachedDocument = nil }
    }

    private func committed(_ commit: CommitInfo) {
        var entryCause = cause
        if commit.cause == .pendingDeepLink {
            entryCause = Cause(source: .deeplink, request: Array(#"{"pendingDeepLink":"completed"}"#.utf8))
        }
        if entryCause.request.count > configuration.maxHistoryRequestBytes {
            let size = entryCause.request.count
            entryCause.request = Array(#"{"omitted":"the request body was too large to keep","bytes":\#(size)}"#.utf8)
        }
        let entry = HistoryEntry(
            version: commit.version, time: now(), source: entryCause.source, request: entryCause.request,
            visiblePath: commit.visiblePath)
        history.append(entry)
        historyBytes += entry.cost
        while history.count > 1,
            history.count > configuration.historyLimit || historyBytes > configuration.maxHistoryBytes
        {
            historyBytes -= history.removeFirst().cost
        }
        broadcast()
    }

    /// Sends the current document to every subscriber (lock held); the event is encoded once for all of them.
    private func broadcast() {
        guard !subscribers.isEmpty else { return }
        // A snapshot: a subscriber still behind on an older state gets this one instead.
        let frame = EventFrame(
            id: String(engine.version), event: "state", data: String(decoding: document(keep: true), as: UTF8.self),
            snapshot: true)
        for (key, stream) in subscribers where !stream.send(frame) {
            subscribers[key] = nil
        }
        activity.withLock { $0.subscribers = subscribers.count }
        onBroadcast?()
    }

    /// Adds a stream subscriber and sends it the current state at once.
    ///
    /// Sending under the lock keeps every subscriber's events in version order. It cannot block or call back:
    /// `EventStream` runs its close callbacks (which call ``unsubscribe(_:)``) only after the connection ended.
    func subscribe(_ stream: EventStream) {
        withLock { engine in
            let key = ObjectIdentifier(stream)
            subscribers[key] = stream
            activity.withLock { $0.subscribers = subscribers.count }
            _ = stream.send(
                EventFrame(
                    id: String(engine.version), event: "state",
                    data: String(decoding: document(keep: true), as: UTF8.self), snapshot: true))
        }
    }

    /// Removes a stream subscriber (from its close callback); the session's idle time starts again now.
    func unsubscribe(_ stream: EventStream) {
        lock.lock()
        subscribers[ObjectIdentifier(stream)] = nil
        let count = subscribers.count
        lock.unlock()
        let time = now()
        activity.withLock {
            $0.subscribers = count
            $0.lastAccess = time
        }
    }

    /// Closes every stream (the session ends).
    func closeStreams() {
        lock.lock()
        let streams = Array(subscribers.values)
        subscribers.removeAll()
        lock.unlock()
        activity.withLock { $0.subscribers = 0 }
        for stream in streams { stream.close() }
    }

    /// The history as JSON (lock held).
    func historyDocument() -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("session", id)
        writer.member("version", engine.version)
        writer.key("entries")
        writer.beginArray()
        for entry in history { entry.write(into: &writer) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    /// A response stored under an idempotency key (lock held).
    func storedResponse(for key: String) -> StoredResponse? {
        idempotency[key]
    }

    /// Remembers a response under an idempotency key (lock held). The oldest keys are forgotten first, past
    /// ``ServerConfiguration/idempotencyLimit`` keys or ``ServerConfiguration/maxIdempotencyBytes`` bytes.
    func store(_ response: StoredResponse, for key: String) {
        if let previous = idempotency[key] {
            idempotencyBytes -= previous.cost(key: key)
        } else {
            idempotencyOrder.append(key)
        }
        idempotency[key] = response
        idempotencyBytes += response.cost(key: key)
        while idempotencyOrder.count > 1,
            idempotencyOrder.count > configuration.idempotencyLimit
                || idempotencyBytes > configuration.maxIdempotencyBytes
        {
            let oldest = idempotencyOrder.removeFirst()
            if let dropped = idempotency.removeValue(forKey: oldest) {
                idempotencyBytes -= dropped.cost(key: oldest)
            }
        }
    }
}
