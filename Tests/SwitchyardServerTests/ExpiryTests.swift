import Switchyard
import Testing

/// Idle sessions expire after the TTL, measured on the injected clock.
@Suite("Session expiry")
struct ExpiryTests {
    @Test func anIdleSessionExpiresAndThenAnswers404() throws {
        let clock = Locked(1_000_000.0)
        try withServer({
            $0.sessionTTL = .seconds(60)
            $0.now = { clock.value }
        }) { server in
            let idle = try server.createSession()
            let busy = try server.createSession()
            #expect(server.api.expireIdleSessions() == 0)

            clock.mutate { $0 += 45 }
            try busy.must(busy.event(#"{"name":"completeOnboarding"}"#))  // a request keeps it alive
            #expect(server.api.expireIdleSessions() == 0)
            #expect(try idle.state().status == 200, "not yet past the TTL")  // a GET counts as use too

            clock.mutate { $0 += 61 }
            #expect(try busy.state().status == 200)
            #expect(server.api.expireIdleSessions() == 1)
            #expect(server.api.sessionCount == 1)
            let gone = try idle.state()
            #expect(gone.status == 404)
            #expect(gone.json["code"] == "unknownSession")
            #expect(try idle.event(#"{"name":"completeOnboarding"}"#).status == 404)
            #expect(try busy.state().status == 200)
            #expect(try metric("switchyard_sessions", server) == 1)

            clock.mutate { $0 += 3600 }
            #expect(server.api.expireIdleSessions() == 1)
            #expect(try busy.state().status == 404)
            #expect(try server.get("/healthz").json["sessions"]?.int == 0)
        }
    }

    @Test func aFollowedSessionDoesNotExpireAndItsIdleTimeStartsWhenTheStreamCloses() throws {
        let clock = Locked(5_000.0)
        try withServer({
            $0.sessionTTL = .seconds(10)
            $0.now = { clock.value }
        }) { server in
            let session = try server.createSession()
            var subscriber: StreamSubscriber? = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            #expect(try subscriber?.next() != nil)
            clock.mutate { $0 += 3600 }
            #expect(server.api.expireIdleSessions() == 0, "an open stream keeps the session")
            subscriber = nil  // the page closes
            #expect(eventually { (try? metric("switchyard_sse_subscribers", server)) == 0 })
            clock.mutate { $0 += 9 }
            #expect(server.api.expireIdleSessions() == 0, "idle time counts from the stream's end")
            clock.mutate { $0 += 2 }
            #expect(server.api.expireIdleSessions() == 1)
            #expect(try session.state().status == 404)
        }
    }

    @Test func aSessionNobodyUsedExpiresAfterTheShorterTTL() throws {
        let clock = Locked(0.0)
        try withServer({
            $0.sessionTTL = .seconds(600)
            $0.unusedSessionTTL = .seconds(60)
            $0.now = { clock.value }
        }) { server in
            let abandoned = try server.post("/api/sessions", nil)
            let used = try server.createSession()
            #expect(try used.state().status == 200)  // any request naming it counts as use
            clock.mutate { $0 += 61 }
            #expect(server.api.expireIdleSessions() == 1)
            #expect(try server.get("/api/sessions/\(abandoned.json["session"]?.stringValue ?? "")").status == 404)
            #expect(try used.state().status == 200)
            clock.mutate { $0 += 599 }
            #expect(server.api.expireIdleSessions() == 0)
            clock.mutate { $0 += 2 }
            #expect(server.api.expireIdleSessions() == 1)
        }
    }

    @Test func creatingASessionExpiresIdleOnesToMakeRoom() throws {
        let clock = Locked(0.0)
        try withServer({
            $0.sessionTTL = .seconds(10)
            $0.maxSessions = 1
            $0.now = { clock.value }
        }) { server in
            let old = try server.createSession()
            let full = try server.post("/api/sessions", nil)
            #expect(full.status == 503)
            #expect(full.header("Retry-After") == "10", "the first session expires in 10 s")
            clock.mutate { $0 += 4 }
            #expect(try server.post("/api/sessions", nil).header("Retry-After") == "6")
            clock.mutate { $0 += 20 }
            #expect(try server.post("/api/sessions", nil).status == 201)
            let gone = try old.state()
            #expect(gone.status == 404, "\(gone.text)")
        }
    }
}
