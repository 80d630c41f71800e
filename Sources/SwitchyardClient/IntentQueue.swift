import Foundation
import SwitchyardJSON
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a session's intents in order, each until the server has answered it for good, and keeps those not yet
/// answered in a file (when given one), so that they outlive the app and a time offline.
///
/// Each intent carries its id as `Idempotency-Key` on every try: an intent the server applied but whose answer was
/// lost (a dropped connection, a server killed after its commit) is answered again from the server's memory of the
/// key, never applied twice. Answers split in two:
/// - **for good**: a 2xx (``Delivery/applied(_:status:body:)``) or a problem the intent itself caused, such as a
///   navigation rule's 409, a guard's redirect, a stale version's 412 or a 404 (``Delivery/refused(_:_:)``, with the
///   typed problem). The intent leaves the queue.
/// - **passing**: no connection, 408, 429, 502, 503, 504. The intent stays first in the queue and is sent again
///   after a pause that grows from 0.25 s to 5 s, and is at least the server's `Retry-After`.
///
/// ```swift
/// let queue = try IntentQueue(server: url, session: id, file: pendingFile)
/// let deliveries = queue.deliveries()
/// try queue.send(.transition([.push("todo", input: "42")], coordinator: "TodosCoordinator"))
/// for await delivery in deliveries { … }
/// ```
public final class IntentQueue: Sendable {
    /// What became of an intent.
    public enum Delivery: Sendable, Equatable {
        /// The server applied it (or had applied it: a replayed answer): the status and the answer's body (the
        /// state document, or its summary).
        case applied(Intent, status: Int, body: Data)
        /// The server refused it for good: its problem.
        case refused(Intent, ClientProblem)

        /// The state document an applied intent was answered with (nil for a refusal, or an answer that is not
        /// one).
        public var document: SessionDocument? {
            guard case .applied(_, _, let body) = self, let json = try? JSONValue(parsing: Array(body)) else {
                return nil
            }
            return SessionDocument(json)
        }
    }

    private struct State {
        var pending: [Intent]
        var stopped = false
        var continuation: AsyncStream<Delivery>.Continuation?
        var wake: AsyncStream<Void>.Continuation?
        var sender: Task<Void, Never>?
    }

    /// The server's base URL.
    public let server: URL
    /// The session the intents go to.
    public let session: String
    /// Where the intents not yet answered are kept (nil: in memory only).
    public let file: URL?
    private let state: Mutex<State>
    private let urlSession: URLSession
    /// The longest pause between two tries.
    private static let maxPause = 5.0

    /// A queue of `session`'s intents on `server`, starting with those `file` keeps from before. Requests go through
    /// a `URLSession` of `configuration` (ephemeral, a 30 s timeout per request, unless given).
    /// - Throws: when `file` exists but cannot be read as a queue.
    public init(
        server: URL, session: String, file: URL? = nil, configuration: URLSessionConfiguration? = nil
    ) throws {
        self.server = server
        self.session = session
        self.file = file
        var pending: [Intent] = []
        if let file, FileManager.default.fileExists(atPath: file.path) {
            pending = try JSONDecoder().decode([Intent].self, from: Data(contentsOf: file))
        }
        state = Mutex(State(pending: pending))
        let configuration =
            configuration
            ?? {
                let ephemeral = URLSessionConfiguration.ephemeral
                ephemeral.timeoutIntervalForRequest = 30
                return ephemeral
            }()
        urlSession = URLSession(configuration: configuration)
    }

    /// The intents not yet answered for good, oldest first.
    public var pending: [Intent] { state.withLock { $0.pending } }

    /// What becomes of each intent, in order, from now on; sending starts with the first call. Call it once.
    public func deliveries() -> AsyncStream<Delivery> {
        let (stream, continuation) = AsyncStream.makeStream(of: Delivery.self, bufferingPolicy: .unbounded)
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { state in
            state.continuation = continuation
            state.wake = wake
            state.sender = Task { [self] in await run(wakes) }
        }
        continuation.onTermination = { [weak self] _ in self?.stop() }
        wake.yield()
        return stream
    }

    /// Adds `intent` at the end of the queue (kept in the file before this returns) and sends it in its turn.
    public func send(_ intent: Intent) throws {
        let wake = try state.withLock { state in
            state.pending.append(intent)
            do {
                try save(state.pending)
            } catch {
                state.pending.removeLast()
                throw error
            }
            return state.wake
        }
        wake?.yield()
    }

    /// Stops sending; the intents not yet answered stay in the file for the next queue.
    public func stop() {
        let (sender, continuation, wake) = state.withLock { state in
            state.stopped = true
            defer {
                state.continuation = nil
                state.wake = nil
            }
            return (state.sender, state.continuation, state.wake)
        }
        sender?.cancel()
        wake?.finish()
        continuation?.finish()
    }

    private func run(_ wakes: AsyncStream<Void>) async {
        var attempt = 0
        var iterator = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            guard let intent = state.withLock({ $0.stopped ? nil : $0.pending.first }) else {
                if state.withLock({ $0.stopped }) { return }
                guard await iterator.next() != nil else { return }
                continue
            }
            switch await post(intent) {
            case .done(let delivery):
                attempt = 0
                let continuation = state.withLock { state -> AsyncStream<Delivery>.Continuation? in
                    if state.pending.first?.id == intent.id { state.pending.removeFirst() }
                    try? save(state.pending)
                    return state.continuation
                }
                continuation?.yield(delivery)
            case .again(let retryAfter):
                attempt += 1
                let pause = max(retryAfter ?? 0, min(Self.maxPause, 0.25 * Double(1 << min(attempt - 1, 5))))
                try? await Task.sleep(for: .seconds(pause))
            }
        }
    }

    private enum Attempt {
        case done(Delivery)
        case again(retryAfter: Double?)
    }

    private func post(_ intent: Intent) async -> Attempt {
        var request = URLRequest(url: server.appendingPathComponent("api/sessions/\(session)/\(intent.kind.rawValue)"))
        request.httpMethod = "POST"
        request.httpBody = intent.body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(intent.id, forHTTPHeaderField: "Idempotency-Key")
        let answer: (Data, HTTPURLResponse)? = await withCheckedContinuation { continuation in
            urlSession.dataTask(with: request) { data, response, _ in
                guard let response = response as? HTTPURLResponse else { return continuation.resume(returning: nil) }
                continuation.resume(returning: (data ?? Data(), response))
            }.resume()
        }
        guard let (data, response) = answer else { return .again(retryAfter: nil) }
        switch response.statusCode {
        case 200..<300:
            // A 2xx that is not a state document did not come from the server (a proxy's page): try again.
            guard (try? JSONValue(parsing: Array(data))).flatMap(SessionDocument.init) != nil else {
                return .again(retryAfter: nil)
            }
            return .done(.applied(intent, status: response.statusCode, body: data))
        case 408, 429, 502, 503, 504:
            let retryAfter = (response.value(forHTTPHeaderField: "Retry-After")).flatMap(Double.init)
            return .again(retryAfter: retryAfter)
        default:
            return .done(.refused(intent, ClientProblem(status: response.statusCode, body: Array(data))))
        }
    }

    /// Writes `pending` to the file, whole and at once (a crash leaves the old file or the new one).
    private func save(_ pending: [Intent]) throws {
        guard let file else { return }
        try JSONEncoder().encode(pending).write(to: file, options: .atomic)
    }
}
