// The Swift client's quick start in docs/clients.md and README.md, compiled here (see
// Tests/SwitchyardTests/DocSnippetCheckTests.swift) and run by ClientModelTests.theQuickStartRuns.
import Foundation
import SwitchyardClient

/// Follows `session` until it shows the settings tab, after sending the intent that opens it; prints as it goes.
func documentedClientQuickStart(server: URL, session: String, pendingIntents: URL) async throws {
    // snippet: client-quick-start
    let follower = SessionFollower(server: server, session: session)
    let queue = try IntentQueue(server: server, session: session, file: pendingIntents)
    Task {
        for await case .refused(_, let problem) in queue.deliveries() { print(problem.kind, problem.detail) }
    }
    try queue.send(.transition([.selectTab("settings")]))
    for await case .state(let document) in follower.updates() {
        print(document.version, document.visiblePath)  // draw document.state?.visible.screen
        if document.visiblePath.last == "settings" { break }
    }
    // end snippet
    follower.stop()
    queue.stop()
}
