import Foundation
import Switchyard
import Testing

/// Many clients at once: separate sessions never interfere, one shared session loses no update.
@Suite("Concurrency")
struct ConcurrencyTests {
    @Test func twoHundredClientsOnTheirOwnSessions() throws {
        try withServer { server in
            let failures = Locked<[String]>([])
            let sessions = Locked<Set<String>>([])
            onThreads(200) { index in
                do {
                    let connection = try RawConnection(port: server.port, timeout: 10)
                    let created = try connection.call("POST", "/api/sessions")
                    guard created.status == 201, let id = created.json["session"]?.stringValue else {
                        throw Failure("create: \(created.status)")
                    }
                    sessions.mutate { _ = $0.insert(id) }
                    let base = "/api/sessions/\(id)"
                    let user = "user\(index)"
                    var last = 0
                    for body in [
                        (base + "/events", #"{"name":"completeOnboarding"}"#),
                        (base + "/events", #"{"name":"login","fields":{"username":"\#(user)"}}"#),
                        (base + "/transitions", #"{"action":"selectTab","route":"todos"}"#),
                        (
                            base + "/transitions",
                            #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
                        ),
                    ] {
                        let reply = try connection.call("POST", body.0, body: body.1)
                        guard reply.status == 200, let version = reply.version, version > last else {
                            throw Failure("\(body.1): \(reply.status) \(reply.text.prefix(200))")
                        }
                        last = version
                    }
                    let state = try connection.call("GET", base)
                    guard state.path == ["authenticated", "todos", "list", "todo"],
                        state.json["tree"]?["root"]?["input"]?.stringValue == user, state.version == last
                    else {
                        throw Failure("final state of \(user): \(state.path)")
                    }
                } catch {
                    failures.mutate { $0.append("client \(index): \(error)") }
                }
            }
            #expect(failures.value.isEmpty, "\(failures.value.prefix(5))")
            #expect(sessions.value.count == 200)
            #expect(server.api.sessionCount == 200)
        }
    }

    @Test func fiftyClientsOnOneSessionLoseNoUpdate() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let start = try #require(
                try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#)).version)
            let accepted = Locked(0)
            let failures = Locked<[String]>([])
            let push = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#
            let pop = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"pop"}]}"#
            onThreads(50) { index in
                do {
                    let connection = try RawConnection(port: server.port, timeout: 10)
                    for round in 0..<4 {
                        // Pushes always apply; a pop may find the stack emptied by the others (409).
                        let body = round.isMultiple(of: 2) ? push : pop
                        let reply = try connection.call("POST", session.base + "/transitions", body: body)
                        switch reply.status {
                        case 200: accepted.mutate { $0 += 1 }
                        case 409 where body == pop: break
                        default: throw Failure("\(reply.status) \(reply.text.prefix(200))")
                        }
                    }
                } catch {
                    failures.mutate { $0.append("client \(index): \(error)") }
                }
            }
            #expect(failures.value.isEmpty, "\(failures.value.prefix(5))")
            let state = try session.state()
            let stack = state.json["tree"]?["root"]?["coordinator"]?["tabs"]?[2]?["coordinator"]?["stack"]?.array ?? []
            #expect(accepted.value >= 100, "every push applies")
            #expect(state.version == start + accepted.value, "lost update: \(accepted.value) accepted")
            #expect(stack.count == 100 - (accepted.value - 100), "pushes minus pops")
        }
    }

    @Test func twoHundredTransitionsFromFiftyClientsAllApply() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let start = try #require(
                try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#)).version)
            let accepted = Locked(0)
            let failures = Locked<[String]>([])
            // Each client pushes twice and pops twice; a pop follows this client's own pushes, so it always has
            // something to pop: 200 transitions, all accepted.
            onThreads(50) { index in
                do {
                    let connection = try RawConnection(port: server.port, timeout: 10)
                    for body in [
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"yellow"}]}"#,
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#,
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"pop"}]}"#,
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"pop"}]}"#,
                    ] {
                        let reply = try connection.call("POST", session.base + "/transitions", body: body)
                        guard reply.status == 200 else { throw Failure("\(reply.status) \(reply.text.prefix(200))") }
                        accepted.mutate { $0 += 1 }
                    }
                } catch {
                    failures.mutate { $0.append("client \(index): \(error)") }
                }
            }
            #expect(failures.value.isEmpty, "\(failures.value.prefix(5))")
            #expect(accepted.value == 200)
            let state = try session.state()
            #expect(state.version == start + 200)
            #expect(state.path == ["authenticated", "settings", "settings"])
            #expect(try metric("switchyard_transitions_total", server) ?? 0 >= 200)
        }
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
