import Switchyard
import SwitchyardSessions
import Testing

/// `GET /api/sessions/{id}/stream`: the current state on connect, then every change as a JSON Patch (or whole, with
/// `?updates=state`), to every subscriber.
@Suite("State stream")
struct StreamTests {
    @Test func twoSubscribersBothReceiveEveryChange() throws {
        try withServer { server in
            let session = try server.createSession()
            let created = try #require(session.created.version)
            let one = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            let two = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            for subscriber in [one, two] {
                #expect(subscriber.status == 200)
                #expect(
                    subscriber.headers.first { $0.0.lowercased() == "content-type" }?.1.hasPrefix("text/event-stream")
                        == true)
                let first = try #require(try subscriber.next(), "no event on connect")
                #expect(first.event == "state")
                #expect(first.id == String(created))
                #expect(first.json == session.created.json)
            }
            #expect(try eventually { try metric("switchyard_sse_subscribers", server) == 2 })

            let changed = try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            let version = try #require(changed.version)
            let state = try session.state()
            for subscriber in [one, two] {
                let event = try #require(try subscriber.nextState(atLeast: version), "no event after the change")
                // The welcome screen gives way to login: a patch would be larger than the document.
                #expect(event.event == "state")
                #expect(event.id == String(version))
                #expect(event.json["version"]?.int == version)
                #expect(event.json["visible"]?["path"]?.strings == ["unauthenticated", "login"])
                #expect(event.json == state.json, "the pushed document is the state document")
            }

            // A chain of several steps is one commit and one event per subscriber.
            try session.must(
                session.transition(
                    #"{"coordinator":"UnauthenticatedCoordinator","steps":[{"action":"push","route":"forgotPassword"},{"action":"popToRoot"},{"action":"push","route":"forgotPassword"}]}"#
                ))
            let afterChain = try #require(try session.state().version)
            for subscriber in [one, two] {
                let event = try #require(try subscriber.next())
                #expect(event.id == String(afterChain))
            }
        }
    }

    @Test func withUpdatesStateEveryChangeIsTheWholeDocument() throws {
        try withServer { server in
            let session = try server.createSession()
            let subscriber = try StreamSubscriber(port: server.port, path: session.base + "/stream?updates=state")
            #expect(try subscriber.next()?.event == "state")
            try session.logIn()
            let current = try session.state()
            let event = try #require(try subscriber.nextState(atLeast: current.version!))
            #expect(event.event == "state")
            #expect(try JSONValue(parsing: Array(event.data.utf8)) == current.json)
        }
    }

    @Test func anUnknownUpdatesChoiceIsABadRequest() throws {
        try withServer { server in
            let session = try server.createSession()
            let response = try server.request("GET", session.base + "/stream?updates=diff")
            #expect(response.status == 400)
            #expect(response.json["detail"]?.stringValue?.contains("'patch'") == true)
        }
    }

    /// The documents the patches rebuild are the documents the API answers, along a long walk of changes.
    @Test func patchesRebuildEveryDocument() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let subscriber = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            let first = try #require(try subscriber.next())
            #expect(first.event == "state")
            let links = [
                "jumper://io.idevs/todo/buy-milk", "jumper://io.idevs/settings", "stinsenapp://todo/hello-world",
                "jumper://io.idevs/home", "jumper://io.idevs/todo/write-docs",
            ]
            var version = first.json["version"]?.int ?? 0
            var (patchBytes, documentBytes) = (0, 0)
            for link in links {
                let answer = try session.must(session.deepLink(link))
                let event = try #require(try subscriber.nextState(atLeast: answer.version!))
                #expect(event.event == "patch")
                #expect(event.data.hasPrefix(#"[{"op":"test","path":"/version","value":\#(version)}"#))
                let current = try session.state()
                #expect(event.data.utf8.count < current.body.count, "a patch is smaller than the document")
                #expect(event.json == current.json, "after \(link)")
                version = answer.version!
                patchBytes += event.data.utf8.count
                documentBytes += current.body.count
            }
            #expect(patchBytes < documentBytes / 2, "\(patchBytes) bytes of patches for \(documentBytes) of documents")
        }
    }

    /// When the store no longer keeps the versions it missed.
    @Test func aReconnectWithLastEventIDGetsTheCurrentStateAtOnce() throws {
        try withServer({ $0.archive = MemorySessionArchive(limits: StoreLimits(historyEntries: 1)) }) { server in
            let session = try server.createSession()
            let first = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            let seen = try #require(try first.next()?.id)
            try session.logIn()
            let current = try session.state()
            let reconnect = try StreamSubscriber(port: server.port, path: session.base + "/stream", lastEventID: seen)
            #expect(reconnect.status == 200)
            let event = try #require(try reconnect.next(), "no event on reconnect")
            #expect(event.event == "state")
            #expect(event.id == String(current.version!))
            #expect(event.json == current.json)
        }
    }

    @Test func aStreamOfAnEndedSessionCloses() throws {
        try withServer { server in
            let session = try server.createSession()
            let subscriber = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            #expect(try subscriber.next() != nil)
            #expect(try server.request("DELETE", session.base).status == 204)
            // The server ends the stream: no more events, and the gauge drops.
            #expect(try subscriber.next() == nil)
            #expect(try eventually { try metric("switchyard_sse_subscribers", server) == 0 })
        }
    }
}

/// The value of an unlabelled metric in `GET /metrics`.
func metric(_ name: String, _ server: TestServer) throws -> Double? {
    let text = try server.get("/metrics").text
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.dropFirst(name.count + 1))
    }
    return nil
}
