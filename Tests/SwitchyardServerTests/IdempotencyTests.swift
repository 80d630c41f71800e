import Switchyard
import Testing

/// `Idempotency-Key`: a retried POST gets the first answer back and applies nothing twice.
@Suite("Idempotency keys")
struct IdempotencyTests {
    @Test func aRetriedTransitionReplaysTheFirstResponse() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            let push = #"{"coordinator":"SettingsCoordinator","steps":[{"action":"push","route":"green"}]}"#
            let key = [("Idempotency-Key", "push-green-1")]
            let first = try session.must(session.transition(push, headers: key))
            #expect(first.header("Idempotent-Replayed") == nil)
            let version = try #require(first.version)

            let retry = try session.transition(push, headers: key)
            #expect(retry.status == 200)
            #expect(retry.body == first.body)
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(retry.header("ETag") == first.header("ETag"))

            let state = try session.state()
            #expect(state.version == version, "the retry applied the push again")
            #expect(state.path == ["authenticated", "settings", "settings", "green"])

            // Another key is another request.
            let other = try session.must(session.transition(push, headers: [("Idempotency-Key", "push-green-2")]))
            #expect(other.version! > version)
            #expect(other.path == ["authenticated", "settings", "settings", "green", "green"])
            #expect(other.header("Idempotent-Replayed") == nil)
        }
    }

    @Test func aRetriedEventAndDeepLinkApplyOnce() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"todos"}"#))
            let form = try session.must(
                session.transition(#"{"coordinator":"TodosCoordinator","steps":[{"action":"route","route":"create"}]}"#)
            )
            let item = try #require(form.json["visible"]?["item"]?.stringValue)
            let create = #"{"from":"\#(item)","name":"create","fields":{"name":"Feed the cat"}}"#
            let first = try session.must(session.event(create, headers: [("Idempotency-Key", "create-1")]))
            let retry = try session.event(create, headers: [("Idempotency-Key", "create-1")])
            #expect(retry.body == first.body)
            #expect(retry.header("Idempotent-Replayed") == "true")
            let rows = try session.state().json["visible"]?["screen"]?["content"]?[0]?["rows"]?.array ?? []
            #expect(
                rows.compactMap { $0["id"]?.stringValue }.filter { $0.hasPrefix("feed-the-cat") } == ["feed-the-cat"])

            let link = try session.must(
                session.deepLink("jumper://io.idevs/settings", headers: [("Idempotency-Key", "link-1")]))
            let again = try session.deepLink("jumper://io.idevs/settings", headers: [("Idempotency-Key", "link-1")])
            #expect(again.body == link.body)
            #expect(again.header("Idempotent-Replayed") == "true")
            #expect(try session.state().version == link.version)
        }
    }

    @Test func aRefusalIsReplayedToo() throws {
        try withServer { server in
            let session = try server.createSession()
            let key = [("Idempotency-Key", "pop-1")]
            let pop = #"{"coordinator":"OnboardingCoordinator","steps":[{"action":"pop"}]}"#
            let first = try session.transition(pop, headers: key)
            #expect(first.status == 409)
            let retry = try session.transition(pop, headers: key)
            #expect(retry.status == 409)
            #expect(retry.body == first.body)
            #expect(retry.header("Idempotent-Replayed") == "true")
        }
    }

    @Test func aRetriedSessionCreationReturnsTheSameSession() throws {
        try withServer({ $0.maxSessions = 3 }) { server in
            let key = [("Idempotency-Key", "create-session-1")]
            let first = try server.post("/api/sessions", nil, headers: key)
            #expect(first.status == 201)
            #expect(first.header("Idempotent-Replayed") == nil)
            let retry = try server.post("/api/sessions", nil, headers: key)
            #expect(retry.status == 201)
            #expect(retry.body == first.body)
            #expect(retry.header("Location") == first.header("Location"))
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(server.api.sessionCount == 1, "the retry created a second session")
            let other = try server.post("/api/sessions", nil, headers: [("Idempotency-Key", "create-session-2")])
            #expect(other.status == 201)
            #expect(other.json["session"] != first.json["session"])
            #expect(server.api.sessionCount == 2)
        }
    }

    @Test func keysBelongToTheirSession() throws {
        try withServer { server in
            let one = try server.createSession()
            let two = try server.createSession()
            let key = [("Idempotency-Key", "shared")]
            let first = try one.must(one.event(#"{"name":"completeOnboarding"}"#, headers: key))
            let second = try two.must(two.event(#"{"name":"completeOnboarding"}"#, headers: key))
            #expect(second.header("Idempotent-Replayed") == nil)
            #expect(second.json["session"]?.stringValue == two.id)
            #expect(first.json["session"]?.stringValue == one.id)
        }
    }
}
