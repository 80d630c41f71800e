import Switchyard
import Testing

/// Health, metrics, catalog, caching and CORS headers, and the page's static files.
@Suite("Operations and static files")
struct OperationsTests {
    @Test func healthz() throws {
        try withServer { server in
            _ = try server.createSession()
            let reply = try server.get("/healthz")
            #expect(reply.status == 200)
            #expect(reply.json["status"] == "ok")
            #expect(reply.json["sessions"]?.int == 1)
            #expect(reply.header("Cache-Control") == "no-store")
            #expect(try server.request("HEAD", "/healthz").status == 200)
        }
    }

    @Test func metricsArePrometheusText() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            _ = try session.transition(#"{"action":"back"}"#)
            let subscriber = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            #expect(try subscriber.next() != nil)
            let reply = try server.get("/metrics")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = reply.text
            #expect(text.contains("# TYPE switchyard_http_requests_total counter"))
            #expect(
                text.contains(
                    #"switchyard_http_requests_total{route="/api/sessions",method="POST",status="201"} 1"#))
            #expect(
                text.contains(
                    #"switchyard_http_requests_total{route="/api/sessions/{id}/transitions",method="POST",status="409"} 1"#
                ))
            #expect(!text.contains(session.id), "session ids must not become label values")
            #expect(text.contains("# TYPE switchyard_sessions gauge"))
            #expect(try metric("switchyard_sessions", server) == 1)
            #expect(try metric("switchyard_sse_subscribers", server) == 1)
            #expect(try metric("switchyard_transitions_rejected_total", server) == 1)
            #expect(text.contains("switchyard_http_request_duration_seconds_bucket{le=\"+Inf\"}"))
        }
    }

    @Test func theCatalogListsCoordinatorsAndRoutes() throws {
        try withServer { server in
            let reply = try server.get("/api/catalog")
            #expect(reply.status == 200)
            #expect(reply.header("Cache-Control") == "no-store")
            let text = reply.text
            for name in [
                "AppCoordinator", "AuthenticatedCoordinator", "TodosCoordinator", "HomeCoordinator",
                "SettingsCoordinator", "CreateTodoCoordinator", "UnauthenticatedCoordinator",
            ] {
                #expect(text.contains("\"\(name)\""), "catalog lacks \(name)")
            }
            for route in ["onboarding", "authenticated", "todos", "todo", "create", "terms", "favourites"] {
                #expect(text.contains("\"\(route)\""), "catalog lacks route \(route)")
            }
            #expect(reply.json != .null)
            #expect(try server.get("/api/catalog?app=todo").body == reply.body)
            #expect(try server.get("/api/catalog?app=chess").status == 404)
        }
    }

    @Test func apiResponsesAreNotCached() throws {
        try withServer { server in
            let session = try server.createSession()
            #expect(session.created.header("Cache-Control") == "no-store")
            for reply in [
                try session.state(), try session.history(), try session.event(#"{"name":"completeOnboarding"}"#),
                try session.transition(#"{"action":"back"}"#), try session.deepLink("jumper://io.idevs/nowhere"),
                try server.get("/api/sessions/nope"), try server.get("/api/catalog"),
                try server.request("PUT", "/api/sessions"),
            ] {
                #expect(reply.header("Cache-Control") == "no-store", "\(reply.status) \(reply.text.prefix(80))")
            }
        }
    }

    @Test func conditionalGetAnswers304() throws {
        try withServer { server in
            let session = try server.createSession()
            let etag = try #require(session.created.header("ETag"))
            #expect(try server.get(session.base, headers: [("If-None-Match", etag)]).status == 304)
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            #expect(try server.get(session.base, headers: [("If-None-Match", etag)]).status == 200)
        }
    }

    @Test(arguments: [
        (#""0", "1""#, 304), (#"W/"1""#, 304), (#""7", W/"1""#, 304), ("*", 304), (#""0""#, 200), (#"W/"2""#, 200),
    ])
    func conditionalGetComparesListsWeakly(header: String, status: Int) throws {
        try withServer { server in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))  // version 1
            #expect(try server.get(session.base, headers: [("If-None-Match", header)]).status == status)
        }
    }

    @Test func metricsLabelsAreBoundedAndEscaped() throws {
        try withServer { server in
            for index in 0..<50 {
                _ = try server.handle("X\(index)", "/healthz")
            }
            _ = try server.handle("G\"T", "/healthz")
            let text = try server.get("/metrics").text
            let requestLines = text.split(separator: "\n").filter { $0.hasPrefix("switchyard_http_requests_total{") }
            #expect(requestLines.count < 10, "one series for every unknown method, not 51")
            #expect(text.contains(#"method="OTHER",status="405"} 51"#))
            #expect(!text.contains("G\"T"))
            for line in requestLines {
                // Every line: name{labels} value, with quotes balanced.
                #expect(line.filter { $0 == "\"" }.count == 6, "\(line)")
            }
        }
    }

    @Test func noCORSHeadersUnlessConfigured() throws {
        try withServer { server in
            let session = try server.createSession()
            for reply in [session.created, try session.state(), try server.get("/healthz")] {
                #expect(reply.header("Access-Control-Allow-Origin") == nil)
            }
            let preflight = try server.request(
                "OPTIONS", session.base + "/transitions", headers: [("Origin", "https://x")])
            #expect(preflight.header("Access-Control-Allow-Origin") == nil)
            #expect(preflight.status == 405)
        }
    }

    @Test func corsHeadersWhenAnOriginIsConfigured() throws {
        try withServer({ $0.corsOrigin = "https://app.example" }) { server in
            let session = try server.createSession()
            for reply in [
                session.created, try session.state(), try server.get("/api/sessions/nope"),
                try session.transition(#"{"action":"back"}"#),
            ] {
                #expect(reply.header("Access-Control-Allow-Origin") == "https://app.example")
            }
            let preflight = try server.request(
                "OPTIONS", session.base + "/transitions",
                headers: [("Origin", "https://app.example"), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204)
            #expect(preflight.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(preflight.header("Access-Control-Allow-Methods")?.contains("POST") == true)
            #expect(preflight.header("Access-Control-Allow-Headers")?.contains("If-Match") == true)
        }
    }

    @Test func thePageIsServedAtRootAndAtSessionLinks() throws {
        try withServer { server in
            let root = try server.get("/")
            #expect(root.status == 200)
            #expect(root.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(root.text.contains("<html") || root.text.contains("<!DOCTYPE") || root.text.contains("<!doctype"))
            let link = try server.get("/s/0123456789abcdef0123456789abcdef")
            #expect(link.status == 200)
            #expect(link.body == root.body)
            #expect(try server.get("/favicon.svg").status == 200)
            #expect(try server.get("/no-such-file.js").status == 404)
            // A screen's address under a session is the page too: it opens that screen.
            let screen = try server.get("/s/0123456789abcdef0123456789abcdef/authenticated/todos/list?link=x://y")
            #expect(screen.status == 200)
            #expect(screen.body == root.body)
            #expect(try server.get("/s").status == 404)
        }
    }
}
