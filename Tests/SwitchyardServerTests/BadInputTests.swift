import Switchyard
import Testing

/// Garbage in is a 4xx out, never a 500, and it changes nothing.
@Suite("Bad input")
struct BadInputTests {
    /// Values of every JSON type, plus extremes, to put in every member.
    static let garbage = [
        "null", "true", "0", "-1", "1.5", "1e400", "-1e400", "99999999999999999999999999", "-9223372036854775809",
        "9223372036854775807", "\"\"", "\"x\"", "[]", "[1,2]", "{}", #"{"a":{"b":[null]}}"#,
        "\"\\u0000\"", "\"\\ud800\"", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ]

    /// Whole bodies that are not the right shape at all.
    static let bodies = [
        "[]", "[1,2,3]", "42", "-0", "1e999", "\"text\"", "true", "null", "{}", "{\"steps\":{}}",
        "{\"steps\":[[]]}", "{\"steps\":[null]}", "{\"steps\":[{}]}", #"{"action":null}"#, "\u{FEFF}{}",
        String(repeating: "{\"a\":", count: 2000) + "1" + String(repeating: "}", count: 2000),
        "{\"action\":\"push\",\"route\":\"" + String(repeating: "x", count: 100_000) + "\"}",
    ]

    static let stepMembers = [
        "action", "route", "input", "animated", "presentation", "match", "item", "routes", "title", "message",
        "actions", "choice",
    ]

    func assertClientError(_ reply: Reply, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            (400..<500).contains(reply.status), "\(what) → \(reply.status) \(reply.text.prefix(300))",
            sourceLocation: sourceLocation)
    }

    @Test func garbageBodiesAreClientErrors() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try session.state()
            for body in Self.bodies {
                for endpoint in ["/transitions", "/events", "/deeplinks"] {
                    assertClientError(try server.post(session.base + endpoint, body), "\(endpoint) \(body.prefix(40))")
                }
                let created = try server.post("/api/sessions", body)
                #expect(created.status == 201 || (400..<500).contains(created.status), "\(body.prefix(40))")
            }
            #expect(try session.state().body == before.body)
        }
    }

    @Test func wrongTypesInEveryTransitionMemberAreClientErrors() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try session.state()
            for value in Self.garbage {
                for member in Self.stepMembers {
                    // A pop that would fail anyway at the todos root, so nothing can apply.
                    let body =
                        member == "action"
                        ? #"{"coordinator":"TodosCoordinator","action":\#(value)}"#
                        : #"{"coordinator":"TodosCoordinator","steps":[{"action":"pop","\#(member)":\#(value)}]}"#
                    assertClientError(try session.transition(body), "\(member)=\(value.prefix(20))")
                }
                for member in ["coordinator", "steps", "expectedVersion"] {
                    assertClientError(
                        try session.transition(#"{"steps":[{"action":"back"}],"\#(member)":\#(value)}"#),
                        "\(member)=\(value.prefix(20))")
                }
                for body in [
                    #"{"name":\#(value)}"#, #"{"name":"danceParty","from":\#(value)}"#,
                    #"{"name":"danceParty","payload":\#(value)}"#, #"{"name":"danceParty","fields":\#(value)}"#,
                    #"{"name":"danceParty","fields":{"a":\#(value)}}"#,
                    #"{"name":"danceParty","expectedVersion":\#(value)}"#,
                ] {
                    assertClientError(try session.event(body), "event \(body.prefix(60))")
                }
                for body in [
                    #"{"url":\#(value)}"#, #"{"url":"jumper://io.idevs/nowhere","expectedVersion":\#(value)}"#,
                ] {
                    assertClientError(try server.post(session.base + "/deeplinks", body), "deeplink \(body.prefix(60))")
                }
            }
            #expect(try session.state().body == before.body)
        }
    }

    @Test func oddHeadersAndTargetsAreClientErrors() throws {
        try withServer { server in
            let session = try server.createSession()
            let before = try session.state()
            for ifMatch in ["banana", "\"\"", "\"99999999999999999999999\"", "W/\"x\""] {
                assertClientError(
                    try session.transition(#"{"action":"back"}"#, headers: [("If-Match", ifMatch)]),
                    "If-Match \(ifMatch)")
            }
            for url in ["", "not a url", "jumper://", "://", "jumper://io.idevs/todo/", "jumper://io.idevs/todo/%00"] {
                assertClientError(try session.deepLink(url), "url \(url)")
            }
            for path in [
                "/api/sessions/%00", "/api/sessions/..%2F..%2Fetc",
                "/api/sessions/" + String(repeating: "a", count: 2000),
                "/api/sessions/x/y/z", "/api/catalog?app=chess",
            ] {
                assertClientError(try server.get(path), path)
            }
            #expect(try session.state().body == before.body)
        }
    }
}

/// A step that lacks a member its action needs is refused before anything runs, with the member named.
@Suite("Missing step members")
struct MissingMemberTests {
    @Test func aMissingMemberIsRefusedBeforeTheVersionIsChecked() throws {
        try withServer { server in
            let session = try server.createSession()
            let reply = try session.transition(#"{"action":"push"}"#, headers: [("If-Match", "\"7\"")])
            #expect(reply.status == 400, "the body is malformed whatever the version")
            #expect(reply.json["code"] == "missingMember")
        }
    }

    @Test(arguments: [
        (#"{"action":"respondToAlert"}"#, "action 'respondToAlert' needs 'choice'"),
        (#"{"action":"push"}"#, "action 'push' needs 'route'"),
        (#"{"steps":[{"action":"popToRoot"},{"action":"popItem"}]}"#, "action 'popItem' needs 'item'"),
        (#"{"action":"pushStack","route":null}"#, "action 'pushStack' needs 'routes'"),
    ])
    func isRefusedWithTheMemberNamed(body: String, detail: String) throws {
        try withServer { server in
            let session = try server.createSession()
            let reply = try session.transition(body)
            #expect(reply.status == 400)
            #expect(reply.json["code"] == "missingMember")
            #expect(reply.json["detail"]?.stringValue == detail)
            #expect(try session.state().version == 0)
        }
    }

    /// A member the step's action does not take is refused, never ignored: a client that sends `route` with `pop`
    /// means something the server would not do. Null stands for absent.
    @Test(arguments: [
        (#"{"action":"pop","route":"todo"}"#, "action 'pop' takes no 'route'; its members: action, animated"),
        (
            #"{"steps":[{"action":"push","route":"todo","input":"a","title":"Buy"}]}"#,
            "action 'push' takes no 'title'; its members: action, animated, route, input"
        ),
    ])
    func aMemberTheActionDoesNotTakeIsRefused(body: String, detail: String) throws {
        try withServer { server in
            let session = try server.createSession()
            let reply = try session.transition(body)
            #expect(reply.status == 400)
            #expect(reply.json["code"] == "unusedMember")
            #expect(reply.json["detail"]?.stringValue == detail)
            #expect(try session.state().version == 0)
            #expect(try session.transition(#"{"action":"back","route":null}"#).status != 400, "null is absent")
        }
    }
}
