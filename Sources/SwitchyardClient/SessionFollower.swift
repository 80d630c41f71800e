import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Follows a session's stream (`GET /api/sessions/{id}/stream`) for as long as it is wanted: every state in order,
/// and how the connection is doing. It survives disconnections and server restarts: it reconnects with a growing
/// pause (0.25 s doubling to 5 s, never shorter than the server's `retry:`) and sends `Last-Event-ID`, so the server
/// replays the versions missed as patches; a patch that does not follow on from the last state (a gap) reconnects at
/// once without it, which starts with the whole state (taken as it is). A stream silent for 45 s (the server pings
/// every 15 s) counts as dropped. The last state stays valid while reconnecting.
///
/// ```swift
/// let follower = SessionFollower(server: URL(string: "http://127.0.0.1:8080")!, session: id)
/// for await update in follower.updates() {
///     if case .state(let state) = update { print(state.visiblePath) }
/// }
/// ```
public final class SessionFollower: Sendable {
    private final class Stream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Callbacks arrive on the URLSession's serial delegate queue; `owner` is only read.
        weak var owner: SessionFollower?
        var parser = EventStreamParser()
        var status = 0
        var problemBody: [UInt8] = []

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if status == 200 { owner?.opened() }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard status == 200 else {
                problemBody += data
                return
            }
            for event in parser.feed(data) { owner?.received(event, retry: parser.retryMilliseconds) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            owner?.ended(status: status, body: problemBody, retry: parser.retryMilliseconds)
            session.finishTasksAndInvalidate()
        }
    }

    private struct State {
        var document: SessionDocument?
        var attempt = 0
        var stopped = false
        var task: URLSessionDataTask?
        var continuation: AsyncStream<SessionUpdate>.Continuation?
        /// Reconnect without `Last-Event-ID` (after a gap).
        var fresh = false
        /// The connection is a fresh one: its first state is taken as it is, even if older than the one held.
        var acceptAnyState = false
        /// Gaps one after the other: the first reconnects at once, the next ones back off like failures.
        var gaps = 0
    }

    /// The server's base URL.
    public let server: URL
    /// The session followed.
    public let session: String
    private let state = Mutex(State())
    /// The longest pause between two tries (unless the server's `retry:` asks for more).
    private static let maxPause = 5.0
    /// The longest a live stream may stay silent before it counts as dropped.
    private static let silence = 45.0

    /// A follower of `session` on `server` (the base URL, e.g. `http://127.0.0.1:8080`).
    public init(server: URL, session: String) {
        self.server = server
        self.session = session
    }

    /// The states and connection changes from now on, until ``stop()`` or a refusal for good
    /// (``ConnectionState/failed(_:)``). Call it once.
    public func updates() -> AsyncStream<SessionUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionUpdate.self, bufferingPolicy: .unbounded)
        state.withLock { $0.continuation = continuation }
        continuation.onTermination = { [weak self] _ in self?.stop() }
        continuation.yield(.connection(.connecting))
        connect()
        return stream
    }

    /// Stops following; the updates end.
    public func stop() {
        let (task, continuation) = state.withLock { state in
            state.stopped = true
            defer { state.continuation = nil }
            return (state.task, state.continuation)
        }
        task?.cancel()
        continuation?.finish()
    }

    /// The last state received.
    public var document: SessionDocument? { state.withLock { $0.document } }

    private func connect() {
        let url = server.appendingPathComponent("api/sessions/\(session)/stream")
        // The longest silence: the server sends `: ping` every 15 s, so a stream quiet for longer is dead.
        var request = URLRequest(url: url, timeoutInterval: Self.silence)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        let delegate = Stream()
        delegate.owner = self
        let urlSession = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
        let started = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            if let document = state.document, !state.fresh {
                request.setValue(String(document.version), forHTTPHeaderField: "Last-Event-ID")
            }
            state.acceptAnyState = state.fresh
            state.fresh = false
            state.task = urlSession.dataTask(with: request)
            state.task?.resume()
            return true
        }
        if !started { urlSession.invalidateAndCancel() }
    }

    private func opened() {
        let continuation = state.withLock { state in
            if state.gaps == 0 { state.attempt = 0 }
            return state.continuation
        }
        continuation?.yield(.connection(.live))
    }

    private func received(_ event: ServerSentEvent, retry: Int?) {
        let (step, continuation, task) = state.withLock {
            state -> (StreamStep, AsyncStream<SessionUpdate>.Continuation?, URLSessionDataTask?) in
            // After a gap, what the cancelled connection still delivers is left: the next connection starts over.
            if state.fresh { return (StreamStep.ignored, nil, nil) }
            let step = StreamStep.of(event, after: state.acceptAnyState ? nil : state.document)
            switch step {
            case .document(let document):
                state.document = document
                state.acceptAnyState = false
            case .gap:
                state.fresh = true
                state.gaps += 1
            case .ignored: break
            }
            return (step, state.continuation, state.task)
        }
        switch step {
        case .document(let document): continuation?.yield(.state(document))
        case .gap: task?.cancel()  // reconnects without Last-Event-ID: the whole state comes first
        case .ignored: break
        }
    }

    private func ended(status: Int, body: [UInt8], retry: Int?) {
        // 404 and 410: the session is gone for good; anything else may pass (a restart, a 503).
        if status == 404 || status == 410 {
            let continuation = state.withLock { state in
                state.stopped = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.yield(.connection(.failed(ClientProblem(status: status, body: body))))
            continuation?.finish()
            return
        }
        let (pause, attempt, continuation) = state.withLock {
            state -> (Double, Int, AsyncStream<SessionUpdate>.Continuation?) in
            state.attempt += 1
            if !state.fresh { state.gaps = 0 }
            let floor = Double(retry ?? 250) / 1000
            let backoff = max(floor, min(Self.maxPause, 0.25 * Double(1 << min(state.attempt - 1, 5))))
            let pause = state.gaps == 1 ? 0 : backoff
            return (pause, state.attempt, state.stopped ? nil : state.continuation)
        }
        guard let continuation else { return }
        continuation.yield(.connection(.reconnecting(next: Date().addingTimeInterval(pause), attempt: attempt)))
        DispatchQueue.global().asyncAfter(deadline: .now() + pause) { [weak self] in self?.connect() }
    }
}
