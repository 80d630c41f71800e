import Foundation
import Switchyard
import Testing

/// `Idempotency-Key`: a retried POST gets the first answer back and applies nothing twice.
@Suite("Idempotency keys")
struct IdempotencyTests {
    @Test func anOverlongOrUnprintableKeyIsRefusedAndChangesNothing() throws {
        try withServer { server in
            let session = try server.createSession()
            for key in [String(repeating: "k", count: 256), "two words", "tab\tkey", ""] {
                let refused = try session.event(
                    #"{"name":"completeOnboarding"}"#, headers: [("Idempotency-Key", key)])
                #expect(refused.status == 400)
                #expect(refused.json["code"] == "invalidIdempotencyKey")
            }
            #expect(try session.state().version == 0)
            let fine = String(repeating: "k", count: 255)
            try session.must(session.event(#"{"name":"completeOnboarding"}"#, headers: [("Idempotency-Key", fine)]))
        }
    }

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

    /// A body that cannot be read is decoded before the session's lock, yet answered like any request: after the
    /// replay of its key, and remembered under it.
    @Test func anUnreadableBodyIsRememberedUnderItsKey() throws {
        try withServer { server in
            let session = try server.createSession()
            let key = [("Idempotency-Key", "typo-1")]
            let typo = #"{"name":"completeOnboarding","payloda":1}"#
            let first = try session.event(typo, headers: key)
            #expect(first.status == 400)
            let retry = try session.event(typo, headers: key)
            #expect(retry.status == 400)
            #expect(retry.header("Idempotent-Replayed") == "true")
            let other = try session.event(#"{"name":"completeOnboarding"}"#, headers: key)
            #expect(other.status == 422, "the key answered another request")
            #expect(other.json["code"] == "idempotencyKeyReused")
            #expect(try session.state().version == 0)
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

/// The same key for a different request, and keys racing each other.
@Suite("Idempotency keys: reuse and races")
struct IdempotencyReuseTests {
    @Test func aKeyReusedForAnotherRequestIs422AndAppliesNothing() throws {
        try withServer { server in
            let session = try server.createSession()
            let key = [("Idempotency-Key", "k-1")]
            let first = try session.must(session.event(#"{"name":"completeOnboarding"}"#, headers: key))
            let before = try session.state()
            let reused = try session.transition(
                #"{"coordinator":"UnauthenticatedCoordinator","steps":[{"action":"push","route":"forgotPassword"}]}"#,
                headers: key)
            #expect(reused.status == 422, "\(reused.text)")
            #expect(reused.json["code"] == "idempotencyKeyReused")
            #expect(reused.header("Idempotent-Replayed") == nil)
            #expect(try session.state().body == before.body)
            // The original request with that key still replays.
            #expect(try session.event(#"{"name":"completeOnboarding"}"#, headers: key).body == first.body)

            let created = try server.post("/api/sessions", nil, headers: [("Idempotency-Key", "c-1")])
            #expect(created.status == 201)
            let other = try server.post("/api/sessions", #"{"app":"todo"}"#, headers: [("Idempotency-Key", "c-1")])
            #expect(other.status == 422)
            #expect(other.json["code"] == "idempotencyKeyReused")
        }
    }

    @Test func aSessionCreationKeyIsForgottenOnceItsSessionEnds() throws {
        try withServer { server in
            let key = [("Idempotency-Key", "create-again")]
            let first = try server.post("/api/sessions", nil, headers: key)
            let location = try #require(first.header("Location"))
            #expect(try server.request("DELETE", location).status == 204)
            let again = try server.post("/api/sessions", nil, headers: key)
            #expect(again.status == 201)
            #expect(again.header("Idempotent-Replayed") == nil)
            #expect(again.header("Location") != location, "the key replayed a session that no longer exists")
            #expect(try server.get(try #require(again.header("Location"))).status == 200)
        }
    }

    @Test func concurrentRetriesOfOneCreationMakeOneSession() throws {
        try withServer { server in
            for round in 0..<3 {
                let key = "racing-create-\(round)"
                let locations = Locked<[String]>([])
                let ready = Locked(0)
                onThreads(30) { _ in
                    guard let connection = try? RawConnection(port: server.port, timeout: 10) else { return }
                    // Connected first, then all send at once.
                    ready.mutate { $0 += 1 }
                    while ready.value < 30 { usleep(100) }
                    guard
                        let reply = try? connection.call(
                            "POST", "/api/sessions", headers: [("Idempotency-Key", key)]),
                        let location = reply.header("Location")
                    else { return }
                    locations.mutate { $0.append(location) }
                }
                #expect(locations.value.count == 30)
                #expect(Set(locations.value).count == 1, "one key made \(Set(locations.value).count) sessions")
            }
            #expect(server.api.sessionCount == 3)
        }
    }

    @Test func concurrentRetriesOfOneTransitionApplyOnce() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try #require(try session.state().version)
            let bodies = Locked<[[UInt8]]>([])
            onThreads(20) { _ in
                guard let connection = try? RawConnection(port: server.port, timeout: 10),
                    let reply = try? connection.call(
                        "POST", session.base + "/transitions", body: #"{"action":"selectTab","route":"todos"}"#,
                        headers: [("Idempotency-Key", "racing-tab")])
                else { return }
                bodies.mutate { $0.append(reply.body) }
            }
            #expect(bodies.value.count == 20)
            #expect(Set(bodies.value).count == 1)
            #expect(try session.state().version == before + 1)
        }
    }
}
