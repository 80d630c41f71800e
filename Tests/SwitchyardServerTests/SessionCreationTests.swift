import MicroHTTP
import Switchyard
import SwitchyardSessions
import Testing

@testable import SwitchyardServer

/// Who may create sessions, how fast, and from where.
@Suite("Session creation")
struct SessionCreationTests {
    @Test func theCreationSaysWhenAnUnusedOrIdleSessionEnds() throws {
        try withServer { server in
            let created = try server.handle("POST", "/api/sessions", peer: "192.0.2.7")
            #expect(created.header("Session-Expiry") == "unused=120, idle=1800", "the defaults: 2 min, 30 min")
        }
        try withServer({
            $0.unusedSessionTTL = .seconds(45)
            $0.sessionTTL = .seconds(3600)
        }) { server in
            let created = try server.handle("POST", "/api/sessions", peer: "192.0.2.7")
            #expect(created.header("Session-Expiry") == "unused=45, idle=3600")
        }
    }

    @Test func eachAddressMayCreateItsRateAndIsToldWhenToRetry() throws {
        let clock = Locked(0.0)
        try withServer({
            $0.sessionCreationsPerMinute = 3
            $0.now = { clock.value }
        }) { server in
            for _ in 0..<3 { #expect(try server.handle("POST", "/api/sessions", peer: "192.0.2.7").status == 201) }
            let refused = try server.handle("POST", "/api/sessions", peer: "192.0.2.7")
            #expect(refused.status == 429)
            #expect(refused.json["code"] == "tooManyCreations")
            #expect(refused.header("Retry-After") == "20", "one creation every 20 s at 3 a minute")
            #expect(try server.handle("POST", "/api/sessions", peer: "192.0.2.8").status == 201, "another address")
            clock.mutate { $0 += 15 }
            #expect(try server.handle("POST", "/api/sessions", peer: "192.0.2.7").header("Retry-After") == "5")
            clock.mutate { $0 += 5 }
            #expect(try server.handle("POST", "/api/sessions", peer: "192.0.2.7").status == 201)
            #expect(server.api.sessionCount == 5)
        }
    }

    @Test func manyAddressesOfOneNetworkShareItsAllowance() throws {
        let clock = Locked(0.0)
        try withServer({
            $0.sessionCreationsPerMinute = 2
            $0.now = { clock.value }
        }) { server in
            // A /24 may create 16 times an address's allowance, however many addresses it uses.
            var created = 0
            for host in 1...40 {
                for _ in 0..<2
                where try server.handle("POST", "/api/sessions", peer: "198.51.100.\(host)").status == 201 {
                    created += 1
                }
            }
            #expect(created == 2 * ClientRateLimiter.networkFactor)
            let refused = try server.handle("POST", "/api/sessions", peer: "198.51.100.77")
            #expect(refused.status == 429)
            #expect(try server.handle("POST", "/api/sessions", peer: "198.51.101.1").status == 201, "another /24")
        }
        #expect(
            ClientRateLimiter.networkKey("2001:db8:1:2:aaaa::1") == ClientRateLimiter.networkKey("2001:db8:1:ff::9")
        )
        #expect(ClientRateLimiter.networkKey("2001:db8:1:2::1") != ClientRateLimiter.networkKey("2001:db8:2:2::1"))
        #expect(ClientRateLimiter.networkKey("::ffff:192.0.2.1") == "192.0.2.0/24")
        #expect(ClientRateLimiter.networkKey("192.0.2.200") == "192.0.2.0/24")
        #expect(ClientRateLimiter.networkKey("2001:db8:1:2:aaaa::1") == "2001:db8:1::/48")
        #expect(ClientRateLimiter.networkKey("not an address") == "not an address")
    }

    @Test func ipv6ClientsAreCountedByTheirSlash64() {
        #expect(
            ClientRateLimiter.clientKey("2001:db8:1:2:aaaa::1")
                == ClientRateLimiter.clientKey("2001:db8:1:2:bbbb::9"))
        #expect(ClientRateLimiter.clientKey("2001:db8:1:2::1") != ClientRateLimiter.clientKey("2001:db8:1:3::1"))
        #expect(ClientRateLimiter.clientKey("::ffff:192.0.2.1") == "192.0.2.1")
        #expect(ClientRateLimiter.clientKey("192.0.2.1") == "192.0.2.1")
    }

    @Test(arguments: [
        ("Content-Type", "application/x-www-form-urlencoded", 415),
        ("Content-Type", "text/plain", 415),
        ("Sec-Fetch-Site", "cross-site", 403),
        ("Origin", "https://evil.example", 403),
        ("Origin", "null", 403),
    ])
    func crossSiteCreationIsRefused(header: String, value: String, status: Int) throws {
        try withServer { server in
            // What a hidden form on another site sends: an empty POST.
            let reply = try server.request(
                "POST", "/api/sessions", body: "", contentType: nil, headers: [(header, value)])
            #expect(reply.status == status)
            #expect(server.api.sessionCount == 0)
        }
    }

    @Test func behindAProxyTheBrowsersOwnWordCounts() throws {
        try withServer { server in
            // The proxy named itself in Host; the browser still says the request is its page's own.
            let headers = [("Origin", "https://app.example"), ("Sec-Fetch-Site", "same-origin")]
            let viaFetchSite = try server.post("/api/sessions", nil, headers: headers)
            #expect(viaFetchSite.status == 201)
            let forwarded = [("Origin", "https://app.example"), ("X-Forwarded-Host", "app.example")]
            let viaForwardedHost = try server.post("/api/sessions", nil, headers: forwarded)
            #expect(viaForwardedHost.status == 201)
        }
    }

    @Test func theSameSiteAndTheConfiguredOriginMayCreate() throws {
        try withServer({ $0.corsOrigin = "https://app.example" }) { server in
            // This client sends `Host: 127.0.0.1`: its own origin is http://127.0.0.1.
            let sameOrigin = try server.post(
                "/api/sessions", nil, headers: [("Origin", "http://127.0.0.1"), ("Sec-Fetch-Site", "same-origin")])
            #expect(sameOrigin.status == 201)
            #expect(try server.post("/api/sessions", nil, headers: [("Origin", "https://app.example")]).status == 201)
            #expect(try server.post("/api/sessions", "{}").status == 201)
            // Changes from another site are refused the same way.
            let session = try server.createSession()
            let event = try session.event(
                #"{"name":"completeOnboarding"}"#, headers: [("Origin", "https://evil.example")])
            #expect(event.status == 403)
            #expect(event.json["code"] == "crossSiteRequest")
            #expect(try session.state().version == 0)
        }
    }

    @Test func idempotencyKeysAreScopedToTheClientsAddress() throws {
        try withServer { server in
            let key = [("Idempotency-Key", "shared-key")]
            let first = try server.handle("POST", "/api/sessions", headers: key, peer: "198.51.100.1")
            let retry = try server.handle("POST", "/api/sessions", headers: key, peer: "198.51.100.1")
            let other = try server.handle("POST", "/api/sessions", headers: key, peer: "198.51.100.2")
            #expect(first.status == 201 && retry.status == 201 && other.status == 201)
            #expect(retry.json["session"] == first.json["session"])
            #expect(retry.header("Idempotent-Replayed") == "true")
            #expect(other.json["session"] != first.json["session"], "another client never gets this session")
            #expect(other.header("Idempotent-Replayed") == nil)
        }
    }
}
