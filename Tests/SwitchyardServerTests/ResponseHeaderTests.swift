import Gzip
import SwitchyardServer
import SwitchyardSessions
import Testing

/// What every answer says about itself: the page's security policy, types that are not sniffed, caching.
@Suite("Response headers")
struct ResponseHeaderTests {
    @Test(arguments: ["/", "/js/app.js", "/css/app.css", "/favicon.svg"])
    func thePageLoadsOnlyItsOwnFilesAndCannotBeFramed(path: String) throws {
        try withServer { server in
            let reply = try server.get(path)
            #expect(reply.status == 200)
            let policy = try #require(reply.header("Content-Security-Policy"))
            for directive in [
                "default-src 'self'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(directive), "\(directive) in \(policy)")
            }
            #expect(!policy.contains("unsafe"), "no inline script or style is allowed")
            #expect(reply.header("X-Frame-Options") == "DENY")
            #expect(reply.header("Referrer-Policy") == "same-origin")
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test func aSessionPageHasThePolicyToo() throws {
        try withServer { server in
            let session = try server.createSession()
            let reply = try server.get("/s/\(session.id)")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        }
    }

    @Test func apiAnswersAreNotSniffed() throws {
        try withServer { server in
            let session = try server.createSession()
            #expect(session.created.header("X-Content-Type-Options") == "nosniff")
            #expect(try server.get(session.base).header("X-Content-Type-Options") == "nosniff")
            #expect(try server.get("/api/sessions/nobody").header("X-Content-Type-Options") == "nosniff")
            #expect(try server.get("/healthz").header("X-Content-Type-Options") == "nosniff")
        }
    }

    @Test func theOpenAPIDocumentIsCachedRevalidatedAndCompressed() throws {
        try withServer { server in
            let plain = try server.get("/api/openapi.json")
            #expect(plain.status == 200)
            let tag = try #require(plain.header("ETag"))
            #expect(plain.header("Cache-Control")?.contains("max-age") == true)
            #expect(plain.header("Vary") == "Accept-Encoding")
            #expect(try server.get("/api/openapi.json", headers: [("If-None-Match", tag)]).status == 304)
            let packed = try server.get("/api/openapi.json", headers: [("Accept-Encoding", "gzip")])
            #expect(packed.header("Content-Encoding") == "gzip")
            #expect(packed.body.count < plain.body.count / 4)
            #expect(Gzip.decompress(packed.body) == plain.body)
            let packedTag = try #require(packed.header("ETag"))
            #expect(packedTag != tag)
            let revalidated = try server.get(
                "/api/openapi.json", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", packedTag)])
            #expect(revalidated.status == 304)
        }
    }

    @Test func metricsAreNeverCached() throws {
        try withServer { server in
            let metrics = try server.get("/metrics")
            #expect(metrics.header("Cache-Control") == "no-store")
        }
    }
}
