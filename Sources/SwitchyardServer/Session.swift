import Foundation
import MicroHTTP
import Switchyard

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
    }

    /// Who caused the changes being committed now, for the history.
    struct Cause {
        var source: HistoryEntry.Source
        var request: [UInt8]
    }

    let id: String
    private let lock = NSLock()
    private let engine: NavigationEngine
    private let historyLimit: Int
    private let idempotencyLimit: Int
    private var history: [HistoryEntry] = []
    private var subscribers: [ObjectIdentifier: EventStream] = [:]
    private var idempotency: [String: StoredResponse] = [:]
    private var idempotencyOrder: [String] = []
    private var cause = Cause(source: .api, request: Array("null".utf8))
    private let now: @Sendable () -> Double
    /// Guards `lastAccessTime` alone: the store reads it for expiry while requests hold `lock`.
    private let accessLock = NSLock()
    private var lastAccessTime: Double
    private var onBroadcast: (@Sendable () -> Void)?
    private var cachedDocument: [UInt8]?

    init(
        id: String, engine: NavigationEngine, configuration: ServerConfiguration,
        onBroadcast: (@Sendable () -> Void)? = nil
    ) {
        self.id = id
        self.engine = engine
        historyLimit = configuration.historyLimit
        idempotencyLimit = configuration.idempotencyLimit
        now = configuration.now
        lastAccessTime = configuration.now()
        self.onBroadcast = onBroadcast
        engine.onCommit = { [unowned self] commit in self.committed(commit) }
    }

    /// Runs `body` with exclusive access to the engine.
    func withLock<Result>(_ body: (NavigationEngine) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        touch()
        return try body(engine)
    }

    /// When a request last used the session (safe to read from any thread).
    var lastAccess: Double {
        accessLock.lock()
        defer { accessLock.unlock() }
        return lastAccessTime
    }

    private func touch() {
        let time = now()
        accessLock.lock()
        lastAccessTime = time
        accessLock.unlock()
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
    /// Reads (`GET`, streams) keep the rendered document until the next change request calls
    /// ``documentMayHaveChanged()`` (app code runs only inside those), so repeated reads and a change's response and
    /// broadcast render once. Responses to changes do not keep it: an idle session holds no rendered copy.
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

    private func committed(_ commit: CommitInfo) {
        cachedDocument = nil
        var entryCause = cause
        if commit.cause == .pendingDeepLink {
            entryCause = Cause(source: .deeplink, request: Array(#"{"pendingDeepLink":"completed"}"#.utf8))
        }
        history.append(
            HistoryEntry(
                version: commit.version, time: now(), source: entryCause.source, request: entryCause.request,
                visiblePath: commit.visiblePath))
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        broadcast()
    }

    /// Sends the current document to every subscriber (lock held); the event is encoded once for all of them.
    private func broadcast() {
        guard !subscribers.isEmpty else { return }
        let frame = EventFrame(
            id: String(engine.version), event: "state", data: String(decoding: document(keep: true), as: UTF8.self))
        for (key, stream) in subscribers where !stream.send(frame) {
            subscribers[key] = nil
        }
        onBroadcast?()
    }

    /// Adds a stream subscriber and sends it the current state at once.
    func subscribe(_ stream: EventStream) {
        withLock { engine in
            let key = ObjectIdentifier(stream)
            subscribers[key] = stream
            _ = stream.send(
                id: String(engine.version), event: "state",
                data: String(decoding: document(keep: true), as: UTF8.self))
        }
    }

    /// Removes a stream subscriber.
    func unsubscribe(_ stream: EventStream) {
        lock.lock()
        subscribers[ObjectIdentifier(stream)] = nil
        lock.unlock()
    }

    /// Closes every stream (the session ends).
    func closeStreams() {
        lock.lock()
        let streams = Array(subscribers.values)
        subscribers.removeAll()
        lock.unlock()
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

    /// Remembers a response under an idempotency key (lock held).
    func store(_ response: StoredResponse, for key: String) {
        if idempotency[key] == nil {
            idempotencyOrder.append(key)
            if idempotencyOrder.count > idempotencyLimit {
                idempotency[idempotencyOrder.removeFirst()] = nil
            }
        }
        idempotency[key] = response
    }
}
