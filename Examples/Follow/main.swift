// switchyard-follow: prints a session's visible path live, with the Swift client (SwitchyardClient).
//
//   switchyard-follow http://127.0.0.1:8080               a new session, followed
//   switchyard-follow http://127.0.0.1:8080 SESSION       an existing session
//   switchyard-follow http://127.0.0.1:8080/s/SESSION     the page's address of a session
//
// One line per state (`v7  authenticated/todos/list  “Todos”`) and one per change of the connection. It keeps
// following through restarts and disconnections; it ends when the session is gone (exit 1) or on Ctrl-C.
import Foundation
import SwitchyardClient
import SwitchyardJSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The server and session named on the command line (nil session: create one).
func target(_ arguments: [String]) -> (server: URL, session: String?)? {
    guard (1...2).contains(arguments.count), var components = URLComponents(string: arguments[0]),
        components.scheme == "http" || components.scheme == "https", components.host != nil
    else { return nil }
    var session = arguments.count == 2 ? arguments[1] : nil
    let parts = components.path.split(separator: "/")
    if parts.count == 2, parts[0] == "s", session == nil { session = String(parts[1]) }
    components.path = ""
    guard let server = components.url else { return nil }
    return (server, session)
}

/// A new session's id.
func createSession(on server: URL) async throws -> String {
    var request = URLRequest(url: server.appendingPathComponent("api/sessions"))
    request.httpMethod = "POST"
    request.httpBody = Data("{}".utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 201, let id = try JSONValue(parsing: Array(data))["session"]?.stringValue else {
        throw ClientProblem(status: status, body: Array(data))
    }
    return id
}

/// One line for a state.
func line(_ document: SessionDocument) -> String {
    let path = document.visiblePath.joined(separator: "/")
    let title = document.title.map { "  “\($0)”" } ?? ""
    let alert = document.state.flatMap { alertShown(in: $0.tree) }.map { "  [alert: \($0)]" } ?? ""
    return "v\(document.version)  \(path)\(title)\(alert)"
}

/// The title of an alert shown anywhere in the tree.
func alertShown(in node: CoordinatorNode) -> String? {
    if let alert = node.alert { return alert.title }
    let entries = [node.root].compactMap { $0 } + node.tabs + node.stack
    return entries.lazy.compactMap(\.coordinator).compactMap(alertShown).first
}

/// Writes a line at once (standard output is buffered when it is a pipe).
func printNow(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let parsed = target(arguments) else {
    FileHandle.standardError.write(
        Data("usage: switchyard-follow SERVER-URL [SESSION]   (or the page's address, SERVER-URL/s/SESSION)\n".utf8))
    exit(64)
}
let server = parsed.server
let session: String
if let named = parsed.session {
    session = named
} else {
    do {
        session = try await createSession(on: server)
    } catch {
        FileHandle.standardError.write(Data("switchyard-follow: cannot create a session on \(server): \(error)\n".utf8))
        exit(1)
    }
}
printNow("following \(session) on \(server.absoluteString)")
let follower = SessionFollower(server: server, session: session)
for await update in follower.updates() {
    switch update {
    case .state(let document):
        printNow(line(document))
    case .connection(.live):
        printNow("… live")
    case .connection(.connecting):
        printNow("… connecting")
    case .connection(.reconnecting(let next, let attempt)):
        printNow("… reconnecting (try \(attempt), in \(String(format: "%.1f", max(0, next.timeIntervalSinceNow))) s)")
    case .connection(.failed(let problem)):
        FileHandle.standardError.write(Data("switchyard-follow: \(problem.status) \(problem.detail)\n".utf8))
        exit(1)
    }
}
