import Switchyard
import Testing

/// An unknown member anywhere in a request body is a 400 that names it, the members allowed there and the nearest
/// one; it is never ignored, and nothing is applied.
@Suite("Strict request bodies")
struct StrictRequestTests {
    @Test func aMisspeltMemberOfAStepIsRefusedWithTheNearestName() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try session.state()
            let reply = try session.transition(#"{"action":"present","route":"blue","presentaton":"fullScreen"}"#)
            #expect(reply.status == 400)
            #expect(reply.json["code"] == "unknownMember")
            #expect(reply.json["detail"]?.stringValue?.contains("'presentaton'") == true)
            #expect(reply.json["detail"]?.stringValue?.contains("did you mean 'presentation'?") == true)
            #expect(reply.json["choices"]?.array?.contains("presentation") == true)
            #expect(try session.state().version == before.version, "nothing was applied")
        }
    }

    @Test func membersAreCheckedInsideChainsAndTheirLists() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let chained = try session.transition(
                #"{"coordinator":"TodosCoordinator","steps":[{"action":"popToRoot"},{"action":"push","rout":"todo"}]}"#)
            #expect(chained.status == 400)
            #expect(chained.json["detail"]?.stringValue?.contains("in 'steps[1]'") == true)
            #expect(chained.json["detail"]?.stringValue?.contains("did you mean 'route'?") == true)
            let listed = try session.transition(
                #"{"coordinator":"TodosCoordinator","steps":[{"action":"pushStack","routes":[{"route":"todo","inptu":"x"}]}]}"#
            )
            #expect(listed.status == 400)
            #expect(listed.json["detail"]?.stringValue?.contains("in 'steps[0].routes[0]'") == true)
            // A chain's body has no step members of its own.
            let mixed = try session.transition(#"{"action":"back","steps":[{"action":"back"}]}"#)
            #expect(mixed.status == 400)
            #expect(mixed.json["code"] == "unknownMember")
            // App data is the app's: any member goes.
            try session.must(session.event(#"{"name":"toggleFavourite","payload":{"id":"buy-milk","anything":1}}"#))
        }
    }

    @Test(arguments: [
        ("/events", #"{"name":"login","feilds":{}}"#, "fields"),
        ("/deeplinks", #"{"url":"jumper://io.idevs/home","expectedVerison":1}"#, "expectedVersion"),
        ("/restore", #"{"version":0,"why":"x"}"#, nil),
    ])
    func everyEndpointRefusesUnknownMembers(endpoint: String, body: String, nearest: String?) throws {
        try withServer { server in
            let session = try server.createSession()
            let reply = try server.post(session.base + endpoint, body)
            #expect(reply.status == 400)
            #expect(reply.json["code"] == "unknownMember")
            let detail = reply.json["detail"]?.stringValue ?? ""
            #expect(detail.contains("did you mean") == (nearest != nil), "\(detail)")
            if let nearest { #expect(detail.contains("'\(nearest)'")) }
        }
    }

    @Test func creatingASessionRefusesUnknownMembers() throws {
        try withServer { server in
            let reply = try server.post("/api/sessions", #"{"ap":"todo"}"#)
            #expect(reply.status == 400)
            #expect(reply.json["detail"]?.stringValue?.contains("did you mean 'app'?") == true)
            #expect(server.api.sessionCount == 0)
        }
    }

    /// The vocabularies the check uses are the members the engine's types write.
    @Test func theVocabulariesMatchWhatTheTypesEncode() throws {
        let reference = Step.RouteReference(route: "todo", input: "x")
        guard case .object(let members) = try JSONValueEncoder().encode(reference) else { throw CancellationError() }
        #expect(Set(members.keys) == Set(Step.RouteReference.memberNames))
        let action = AlertAction("OK", role: .cancel, event: "done", payload: "p")
        guard case .object(let alert) = try JSONValueEncoder().encode(action) else { throw CancellationError() }
        #expect(Set(alert.keys) == Set(AlertAction.memberNames))
        #expect(Set(Step.memberNames).isSuperset(of: ["action", "route", "input", "presentation", "result"]))
    }
}
