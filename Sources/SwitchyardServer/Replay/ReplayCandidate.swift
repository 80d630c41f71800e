import Logging
import MicroHTTP
import Switchyard
import SwitchyardJSON
import SwitchyardSessions

/// The candidate a replay runs on: the server's API over a store in this process's memory, answering requests in
/// process. A recorded session is put into its store as the session's first replayed state, read back as a store's
/// session is (through the migration chain, exactly as `serve` would migrate it), and sent its recorded requests as
/// a client sent them; then it is deleted. Nothing reaches the replayed store.
final class ReplayCandidate: Sendable {
    /// What the candidate answered a request.
    struct Answer: Error {
        var outcome: ReplayOutcome
        /// The session's version after it (nil when refused).
        var version: Int?
        /// The problem's `detail`, when refused.
        var detail: String?
        /// The problem's `choices` (for `unknownRoute`, the routes there are), when refused.
        var choices: [String] = []
    }

    /// The candidate's session as it took it: its version, and the app version running it.
    struct Opened {
        var version: Int
        var app: AppVersion?
    }

    let apps: [NavigationApp]
    /// The candidate's clock (seconds since 1970).
    let now: @Sendable () -> Double
    private let archive: MemorySessionArchive
    private let api: SwitchyardAPI

    /// A candidate serving `configuration`'s apps and rollouts (its store is replaced by one in memory) that keeps
    /// up to `maxRequests` versions of each session (a recorded restore must find the version it names).
    init(configuration: ServerConfiguration, maxRequests: Int) {
        var configuration = configuration
        archive = MemorySessionArchive(
            limits: StoreLimits(historyEntries: maxRequests + 2, historyBytes: 64 << 20, replies: 1, replyBytes: 0))
        configuration.archive = archive
        configuration.sessionCreationsPerMinute = 0
        apps = configuration.apps
        now = configuration.now
        api = SwitchyardAPI(
            configuration: configuration, logger: Logger(label: "switchyard.replay") { _ in SwiftLogNoOpLogHandler() })
    }

    /// Takes `session` as stored (its document at its first replayed version) and reads it back: the version and
    /// app it runs on, or the answer that refused it (410 `sessionIncompatible` when no served version takes it).
    func open(_ session: StoredSession) -> Result<Opened, Answer> {
        do {
            try archive.apply([.create(session, creation: nil)])
        } catch {
            return .failure(Answer(outcome: .refused(code: "storeUnavailable", status: 503), detail: "\(error)"))
        }
        let (status, body) = send("GET", "/api/sessions/\(session.id)", nil)
        guard status == 200, let version = RecordedRequest.integer(body?["version"]) else {
            return .failure(refusal(status, body))
        }
        let app = body?["app"].flatMap { app -> AppVersion? in
            guard let name = app["name"]?.stringValue, let version = RecordedRequest.integer(app["version"]) else {
                return nil
            }
            return AppVersion(name: name, version: version)
        }
        return .success(Opened(version: version, app: app))
    }

    /// Sends `body` to `POST /api/sessions/{id}/{endpoint}`, asking for the short answer.
    func request(_ id: String, _ endpoint: String, _ body: [UInt8]) -> Answer {
        let (status, answer) = send("POST", "/api/sessions/\(id)/\(endpoint)", body)
        let path = { (document: JSONValue?) in
            document?["visible"]?["path"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        if (200..<300).contains(status) {
            return Answer(outcome: .committed(path: path(answer)), version: RecordedRequest.integer(answer?["version"]))
        }
        if status == 409, answer?["code"]?.stringValue == "redirected" {
            return Answer(
                outcome: .redirected(path: path(answer?["state"])),
                version: RecordedRequest.integer(answer?["currentVersion"]))
        }
        return refusal(status, answer)
    }

    /// Deletes the candidate's copy of session `id`.
    func close(_ id: String) {
        _ = send("DELETE", "/api/sessions/\(id)", nil)
        try? archive.apply([.remove(session: id)])
    }

    private func refusal(_ status: Int, _ body: JSONValue?) -> Answer {
        Answer(
            outcome: .refused(code: body?["code"]?.stringValue ?? "status\(status)", status: status),
            detail: body?["detail"]?.stringValue,
            choices: body?["choices"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    private func send(_ method: String, _ target: String, _ body: [UInt8]?) -> (Int, JSONValue?) {
        var headers = HTTPHeaders([("Host", "localhost"), ("Prefer", "return=minimal")])
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: body ?? [])
        do {
            let response = try api.handle(request)
            guard case .bytes(let bytes) = response.body, !bytes.isEmpty else { return (response.status, nil) }
            return (response.status, try? JSONValue(parsing: bytes))
        } catch {
            return (500, ["code": "replayFailed", "detail": .string("\(error)")])
        }
    }
}
