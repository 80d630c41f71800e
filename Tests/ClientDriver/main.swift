// Drives one session with the Swift client for Tests/cluster/test_clients.py: sends COUNT intents (a push, then a
// pop, …) through an intent queue kept in FILE, follows the session meanwhile, and once every intent is answered and
// the follower holds the server's final version prints one JSON line: {"acknowledged", "refused" (each {"index",
// "status", "code"}), "followed", "final"}.
//   switchyard-client-driver SERVER-URL SESSION COUNT FILE
import Foundation
import SwitchyardClient
import SwitchyardJSON

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count == 5, let server = URL(string: arguments[1]), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: switchyard-client-driver SERVER-URL SESSION COUNT FILE\n".utf8))
    exit(64)
}
let session = arguments[2]
let follower = SessionFollower(server: server, session: session)
let updates = follower.updates()
let queue = try IntentQueue(server: server, session: session, file: URL(fileURLWithPath: arguments[4]))
let deliveries = queue.deliveries()
var indexOf: [String: Int] = [:]
for index in 0..<count {
    let step: Step = index.isMultiple(of: 2) ? .push("todo", input: "buy-milk") : .pop
    let intent = Intent.transition([step], coordinator: "TodosCoordinator")
    indexOf[intent.id] = index
    try queue.send(intent)
}
var acknowledged = 0
var refused: [JSONValue] = []
for await delivery in deliveries {
    switch delivery {
    case .applied: acknowledged += 1
    case .refused(let intent, let problem):
        refused.append([
            "index": .number(Double(indexOf[intent.id] ?? -1)), "status": .number(Double(problem.status)),
            "code": .string(problem.code ?? ""),
        ])
    }
    if acknowledged + refused.count == count { break }
}
queue.stop()

/// The session's version now, read until a node answers (one may be down).
func finalVersion() async -> Int {
    while true {
        if let (data, response) = try? await URLSession.shared.data(
            from: server.appendingPathComponent("api/sessions/\(session)")),
            (response as? HTTPURLResponse)?.statusCode == 200,
            case .number(let version)? = try? JSONValue(parsing: Array(data))["version"]
        {
            return Int(version)
        }
        try? await Task.sleep(for: .milliseconds(200))
    }
}
let final = await finalVersion()
var followed = follower.document?.version ?? -1
if followed < final {
    for await case .state(let document) in updates {
        followed = document.version
        if followed >= final { break }
    }
}
follower.stop()
let summary: JSONValue = [
    "acknowledged": .number(Double(acknowledged)), "refused": .array(refused),
    "followed": .number(Double(followed)), "final": .number(Double(final)),
]
print(summary.jsonString)
