import Foundation
import SwitchyardClient
import SwitchyardJSON
import Testing

/// `SwitchyardClient`'s typed state document: the demo's states decode whole (tabs, stacks, alerts, screens), and a
/// control's action becomes the intent that taps it.
@Suite("Swift client: the typed state document")
struct ClientModelTests {
    @Test func theDemoDecodesWholeAndAControlTapsThroughItsAction() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let session = try server.createSession()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let queue = try IntentQueue(server: url, session: session.id)
        defer { queue.stop() }
        var deliveries = queue.deliveries().makeAsyncIterator()
        func tap(_ intent: Intent?) async throws -> SessionState {
            try queue.send(try #require(intent))
            guard case .applied(_, _, let body) = await deliveries.next() else {
                throw ClientTestError("not applied")
            }
            let document = try #require(SessionDocument(try JSONValue(parsing: Array(body))))
            return try #require(document.state, "the answer decodes as the typed model")
        }

        var state = try await tap(.event("completeOnboarding"))
        #expect(state.app.name == "todo" && state.app.version == 1)
        #expect(state.visible.path.last == "login")
        // An empty name shows an alert: typed, with its actions.
        state = try await tap(.event("login", fields: ["username": ""]))
        let alert = try #require(Self.nodes(state.tree).compactMap(\.alert).first)
        #expect(!alert.title.isEmpty && !alert.actions.isEmpty)
        state = try await tap(.transition([.respondToAlert(choice: 0)], coordinator: state.visible.coordinator))
        #expect(Self.nodes(state.tree).allSatisfy { $0.alert == nil })
        // The login screen's text field and button: the button's event takes the field's value.
        let screen = try #require(state.visible.screen)
        let field = try #require(
            screen.content.compactMap { element -> String? in
                if case .textField(let id, _, _, _, _) = element { id } else { nil }
            }.first)
        let login = try #require(
            screen.content.compactMap { element -> ScreenAction? in
                if case .button(_, .primary, false, let action) = element { action } else { nil }
            }.first)
        state = try await tap(Intent(login, fields: [field: "ada"]))
        // Tabs: a tab coordinator under the root, its tab items, the todos list with rows that open a todo.
        let tabs = try #require(Self.nodes(state.tree).first { $0.kind == .tab })
        #expect(tabs.tabs.count >= 2 && tabs.tabs.allSatisfy { $0.tabItem != nil })
        #expect(tabs.selectedTab == state.visible.path[1])
        let rows = try #require(
            state.visible.screen?.content.compactMap { element -> [ListRow]? in
                if case .list(let rows) = element { rows } else { nil }
            }.first)
        let row = try #require(rows.first { $0.action != nil })
        state = try await tap(Intent(try #require(row.action)))
        #expect(state.visible.path.last == "todo", "\(state.visible.path)")
        let stack = try #require(Self.nodes(state.tree).first { !$0.stack.isEmpty }?.stack)
        #expect(stack.last?.presentation == .push && stack.last?.input == .string(row.id))
    }

    /// The quick start of docs/clients.md and the README ends on the settings tab.
    @Test(.timeLimit(.minutes(1))) func theQuickStartRuns() async throws {
        let store = try TemporaryStore()
        let server = try store.server(at: ServerAddress())
        defer { server.stop() }
        let session = try server.createSession()
        try session.logIn()
        try await documentedClientQuickStart(
            server: try #require(URL(string: "http://127.0.0.1:\(server.port)")), session: session.id,
            pendingIntents: URL(fileURLWithPath: store.folder).appendingPathComponent("intents.json"))
        #expect(try session.state().json["visible"]?["path"]?.array?.contains("settings") == true)
    }

    /// A newer server's names (a presentation, a kind, a role, an element) still decode: as `unknown`.
    @Test func namesFromANewerServerDecodeAsUnknown() throws {
        let json = try JSONValue(
            parsing: Array(
                #"""
                {"session":"s","app":{"name":"a","version":2},"version":3,
                 "visible":{"path":["x"],"coordinator":"n1","item":"i2","screen":{"title":"X","content":[
                   {"type":"map","region":"north"},{"type":"text","text":"t","style":"huge"},
                   {"type":"button","title":"b","role":"ghost","disabled":false,
                    "action":{"type":"share","url":"u"}}]}},
                 "tree":{"id":"n1","type":"T","kind":"split","root":{"id":"i1","route":"r","screen":null},
                   "stack":[{"id":"i2","route":"x","presentation":"popover","screen":null}]}}
                """#.utf8))
        let state = try #require(SessionDocument(json)?.state)
        #expect(state.tree.kind == .unknown && state.tree.stack.first?.presentation == .unknown)
        let content = try #require(state.visible.screen?.content)
        #expect(content.count == 3)
        guard case .unknown = content[0], case .text(_, .unknown) = content[1],
            case .button(_, .unknown, _, .unknown) = content[2]
        else {
            Issue.record("unknown names kept as unknown: \(content)")
            return
        }
        #expect(Intent(ScreenAction.unknown(.null)) == nil, "no intent for an action it does not know")
    }

    /// Every node of `tree`, depth first.
    static func nodes(_ tree: CoordinatorNode) -> [CoordinatorNode] {
        let entries = [tree.root].compactMap { $0 } + tree.tabs + tree.stack
        return [tree] + entries.compactMap(\.coordinator).flatMap(nodes)
    }
}

struct ClientTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
