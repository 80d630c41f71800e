import Switchyard
import Testing

/// Every status the API documents, with the problem document's `code`, and nothing applied on a refusal.
@Suite("Status codes")
struct StatusCodeTests {
    /// Checks a problem answer: status, `application/problem+json`, `code`, `status` member; returns it.
    @discardableResult
    static func problem(
        _ reply: Reply, _ status: Int, code: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Reply {
        #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(reply.json["status"]?.int == status, sourceLocation: sourceLocation)
        #expect(reply.json["title"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(reply.json["detail"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        if let code {
            #expect(reply.json["code"]?.stringValue == code, sourceLocation: sourceLocation)
            #expect(reply.json["type"]?.stringValue == "/problems/\(code)", sourceLocation: sourceLocation)
        }
        return reply
    }

    /// Runs `refuse` and checks that the session's document did not change at all.
    static func unchanged(_ session: DemoSession, _ refuse: () throws -> Void) throws {
        let before = try session.state()
        try refuse()
        let after = try session.state()
        #expect(after.body == before.body, "a refused request changed the session")
    }

    @Test func anUnknownSessionIs404() throws {
        try withServer { server in
            let missing = "/api/sessions/0123456789abcdef0123456789abcdef"
            for reply in [
                try server.get(missing), try server.get(missing + "/history"), try server.get(missing + "/stream"),
                try server.request("DELETE", missing),
                try server.post(missing + "/transitions", #"{"action":"back"}"#),
                try server.post(missing + "/events", #"{"name":"logout"}"#),
                try server.post(missing + "/deeplinks", #"{"url":"jumper://io.idevs/home"}"#),
            ] {
                Self.problem(reply, 404, code: "unknownSession")
            }
            Self.problem(try server.get("/api/nothing-here"), 404, code: "noSuchEndpoint")
        }
    }

    @Test func aDeletedSessionIsGone() throws {
        try withServer { server in
            let session = try server.createSession()
            #expect(try server.request("DELETE", session.base).status == 204)
            Self.problem(try session.state(), 404, code: "unknownSession")
            Self.problem(try server.request("DELETE", session.base), 404, code: "unknownSession")
        }
    }

    @Test func malformedJSONIs400() throws {
        try withServer { server in
            let session = try server.createSession()
            try Self.unchanged(session) {
                for body in [#"{"action":"#, "not json", #"{"action" "push"}"#, "", "{} {}"] {
                    Self.problem(try session.transition(body), 400, code: "malformedRequest")
                }
                Self.problem(try session.event(#"{"name":"#), 400, code: "malformedRequest")
                Self.problem(try server.post(session.base + "/deeplinks", "{url}"), 400, code: "malformedRequest")
            }
            Self.problem(try server.post("/api/sessions", "[1,"), 400, code: "malformedRequest")
        }
    }

    @Test func anUnknownActionIs400WithTheChoices() throws {
        try withServer { server in
            let session = try server.createSession()
            try Self.unchanged(session) {
                let reply = Self.problem(try session.transition(#"{"action":"teleport"}"#), 400, code: "unknownAction")
                let choices = reply.json["choices"]?.strings ?? []
                #expect(choices.contains("push"))
                #expect(choices.contains("selectTab"))
                #expect(choices.contains("respondToAlert"))
            }
        }
    }

    @Test func anUnknownRouteIs400ListingTheValidRoutes() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try Self.unchanged(session) {
                let reply = Self.problem(
                    try session.transition(
                        #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"nowhere"}]}"#),
                    400, code: "unknownRoute")
                let choices = reply.json["choices"]?.strings ?? []
                #expect(choices.contains("todo"))
                #expect(choices.contains("create"))
                #expect(!choices.contains("nowhere"))
                let focus = Self.problem(
                    try session.transition(
                        #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"nowhere"}]}"#),
                    400, code: "unknownRoute")
                #expect(focus.json["choices"]?.strings == ["home", "todos", "settings", "profile"])
                let tab = try session.transition(#"{"action":"selectTab","route":"nowhere"}"#)
                #expect(tab.json["choices"]?.strings == ["home", "todos", "settings", "profile"])
                Self.problem(tab, 400, code: "unknownRoute")
            }
        }
    }

    @Test func inputThatDoesNotDecodeIs422() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try Self.unchanged(session) {
                for input in ["42", "true", #"{"id":"buy-milk"}"#, "[1]", "null"] {
                    Self.problem(
                        try session.transition(
                            #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":\#(input)}]}"#
                        ), 422, code: "invalidInput")
                }
            }
        }
    }

    @Test func navigationRulesAre409WithTheEnginesCode() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try session.must(session.transition(#"{"action":"selectTab","route":"settings"}"#))
            try Self.unchanged(session) {
                Self.problem(
                    try session.transition(#"{"coordinator":"SettingsCoordinator","steps":[{"action":"pop"}]}"#),
                    409, code: "cannotPopRoot")
                let popTo = Self.problem(
                    try session.transition(
                        #"{"coordinator":"SettingsCoordinator","steps":[{"action":"popTo","route":"green"}]}"#),
                    409, code: "routeNotInStack")
                #expect(popTo.json["choices"] != nil)
                Self.problem(try session.transition(#"{"action":"back"}"#), 409, code: "cannotGoBack")
                Self.problem(try session.transition(#"{"action":"dismissModal"}"#), 409, code: "noModal")
            }
            // The terms sheet cannot be swiped away.
            let terms = try session.must(
                session.transition(
                    #"{"coordinator":"SettingsCoordinator","steps":[{"action":"route","route":"terms"}]}"#))
            #expect(terms.path.last == "terms")
            try Self.unchanged(session) {
                Self.problem(try session.transition(#"{"action":"dismissModal"}"#), 409, code: "notDismissible")
            }
        }
    }

    @Test func aWrongMethodIs405WithAllow() throws {
        try withServer { server in
            let session = try server.createSession()
            let cases: [(String, String, String)] = [
                ("GET", session.base + "/transitions", "POST"),
                ("PUT", session.base + "/events", "POST"),
                ("GET", session.base + "/deeplinks", "POST"),
                ("POST", session.base + "/stream", "GET, HEAD"),
                ("DELETE", session.base + "/history", "GET, HEAD"),
                ("GET", "/api/sessions", "POST"),
                ("PATCH", session.base, "GET, DELETE, HEAD"),
                ("POST", "/healthz", "GET, HEAD"),
                ("POST", "/metrics", "GET, HEAD"),
                ("DELETE", "/api/catalog", "GET, HEAD"),
                ("POST", "/", "GET, HEAD"),
                ("PUT", "/s/0123456789abcdef0123456789abcdef", "GET, HEAD"),
            ]
            for (method, path, allow) in cases {
                let reply = try server.request(method, path, body: method == "GET" ? nil : "{}")
                Self.problem(reply, 405, code: "methodNotAllowed")
                #expect(reply.header("Allow") == allow, "\(method) \(path)")
            }
        }
    }

    @Test func aBodyThatIsNotJSONIs415() throws {
        try withServer { server in
            let session = try server.createSession()
            try Self.unchanged(session) {
                for type in ["text/plain", "application/x-www-form-urlencoded", "application/xml"] {
                    let reply = try server.request(
                        "POST", session.base + "/events", body: #"{"name":"completeOnboarding"}"#, contentType: type)
                    Self.problem(reply, 415, code: "unsupportedMediaType")
                }
                Self.problem(
                    try server.request(
                        "POST", session.base + "/transitions", body: #"{"action":"back"}"#, contentType: nil),
                    415)
            }
            // Parameters and +json types are JSON.
            let charset = try server.request(
                "POST", session.base + "/events", body: #"{"name":"completeOnboarding"}"#,
                contentType: "application/json; charset=utf-8")
            #expect(charset.status == 200)
        }
    }

    @Test func aStaleVersionIs412WithTheCurrentStateAndNothingApplied() throws {
        try withServer { server in
            let session = try server.createSession()
            let onboarded = try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            let current = try #require(onboarded.version)
            let stale = current - 1
            try Self.unchanged(session) {
                let document = try session.state()
                let replies = [
                    try session.event(
                        #"{"name":"login","fields":{"username":"ada"}}"#, headers: [("If-Match", "\"\(stale)\"")]),
                    try session.event(#"{"name":"login","fields":{"username":"ada"},"expectedVersion":\#(stale)}"#),
                    try session.transition(
                        #"{"action":"route","route":"authenticated","input":"x","expectedVersion":\#(stale)}"#),
                    try session.transition(
                        #"{"coordinator":"UnauthenticatedCoordinator","steps":[{"action":"route","route":"forgotPassword"}]}"#,
                        headers: [("If-Match", "\"\(current + 5)\"")]),
                    try session.deepLink("jumper://io.idevs/home", headers: [("If-Match", "\"\(stale)\"")]),
                ]
                for reply in replies {
                    Self.problem(reply, 412, code: "staleVersion")
                    #expect(reply.json["currentVersion"]?.int == current)
                    #expect(reply.header("ETag") == "\"\(current)\"")
                    #expect(reply.json["state"] == document.json, "the body carries the current state document")
                }
            }
            // The current version (header or member) applies.
            let ok = try session.event(
                #"{"name":"login","fields":{"username":"ada"}}"#, headers: [("If-Match", "\"\(current)\"")])
            #expect(ok.status == 200)
            let next = try #require(ok.version)
            let viaMember = try session.transition(
                #"{"action":"selectTab","route":"todos","expectedVersion":\#(next)}"#)
            #expect(viaMember.status == 200)
            #expect(try session.transition(#"{"action":"back"}"#, headers: [("If-Match", "*")]).status == 409)
        }
    }

    @Test func deepLinksThatDoNotResolveAre404() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            try Self.unchanged(session) {
                Self.problem(try session.deepLink("jumper://io.idevs/nowhere"), 404, code: "deepLinkNotMatched")
                Self.problem(try session.deepLink("ftp://example.org/x"), 404, code: "deepLinkNotMatched")
                Self.problem(
                    try session.deepLink("jumper://io.idevs/todo/no-such-todo"), 404, code: "deepLinkUnresolved")
                Self.problem(try session.deepLink("stinsenapp://todo/no-such-todo"), 404, code: "deepLinkUnresolved")
            }
        }
    }

    @Test func unknownCoordinatorsAndItemsAre404() throws {
        try withServer { server in
            let session = try server.createSession()
            try Self.unchanged(session) {
                Self.problem(
                    try session.transition(#"{"coordinator":"n999","steps":[{"action":"pop"}]}"#), 404,
                    code: "coordinatorNotFound")
                Self.problem(
                    try session.event(#"{"from":"i999","name":"completeOnboarding"}"#), 404, code: "itemNotFound")
            }
        }
    }

    @Test func anEventNobodyHandlesIs422() throws {
        try withServer { server in
            let session = try server.createSession()
            try Self.unchanged(session) {
                Self.problem(try session.event(#"{"name":"danceParty"}"#), 422, code: "eventNotHandled")
            }
            try session.logIn()
            try Self.unchanged(session) {
                Self.problem(try session.event(#"{"name":"login","fields":{"username":""}}"#), 422)
            }
        }
    }

    @Test func tooManySessionsIs503WithRetryAfter() throws {
        try withServer({ $0.maxSessions = 2 }) { server in
            let first = try server.createSession()
            _ = try server.createSession()
            let refused = Self.problem(try server.post("/api/sessions", nil), 503, code: "tooManySessions")
            let retry = try #require(refused.header("Retry-After"))
            #expect((Int(retry) ?? 0) > 0)
            #expect(server.api.sessionCount == 2)
            // Ending a session makes room again.
            #expect(try server.request("DELETE", first.base).status == 204)
            #expect(try server.post("/api/sessions", nil).status == 201)
        }
    }

    @Test func anUnknownAppIs400WithTheChoices() throws {
        try withServer { server in
            let reply = Self.problem(try server.post("/api/sessions", #"{"app":"chess"}"#), 400, code: "unknownApp")
            #expect(reply.json["choices"]?.strings == ["todo"])
            #expect(try server.post("/api/sessions", #"{"app":"todo"}"#).status == 201)
        }
    }
}
