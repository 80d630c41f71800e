import Switchyard
import SwitchyardDefinitions
import Testing

/// `POST /api/definitions/check`: the dry run of an app definition for CI, as `switchyard check FILE` prints it.
@Suite("The definition check endpoint")
struct DefinitionCheckEndpointTests {
    @Test func aBrokenDefinitionIsAnsweredWithItsFindings() throws {
        try withServer { server in
            let reply = try server.post(
                "/api/definitions/check",
                #"{"name": "shop", "root": "App", "coordinators": {"App": {"kind": "stack", "initial": "home", "routes": {"home": {"kind": "root", "target": "Hom"}}}}, "screens": {"Home": {"title": "Shop"}}}"#
            )
            #expect(reply.status == 200)
            #expect(reply.json["valid"] == false)
            #expect(reply.json["name"] == .null)
            let finding = try #require(reply.json["diagnostics"]?.array?.first)
            #expect(finding["severity"] == "error")
            #expect(finding["code"] == "unknownTarget")
            #expect(finding["pointer"] == "/coordinators/App/routes/home/target")
            #expect(finding["suggestion"] == "did you mean 'Home'?")
            // The place of the value in the text sent: one line, the column of `"Hom"`.
            #expect(finding["line"] == 1)
            #expect(finding["column"] == 140)
        }
    }

    @Test func aSoundYAMLDefinitionIsValidAndNothingIsServed() throws {
        try withServer { server in
            let yaml = """
                name: hello
                root: Main
                coordinators:
                  Main: {kind: stack, initial: home, routes: {home: {kind: root, target: Home}}}
                screens:
                  Home: {title: Hello}
                """
            let reply = try server.request(
                "POST", "/api/definitions/check", body: yaml, contentType: "application/yaml")
            #expect(reply.status == 200)
            #expect(reply.json["valid"] == true)
            #expect(reply.json["name"] == "hello")
            #expect(reply.json["diagnostics"]?.array == [])
            #expect(try server.post("/api/sessions", #"{"app": "hello"}"#).json["code"] == "unknownApp")
        }
    }

    @Test func anotherMediaTypeIs415WithTheChoices() throws {
        try withServer { server in
            let reply = try server.request("POST", "/api/definitions/check", body: "name: x", contentType: "text/plain")
            #expect(reply.status == 415)
            #expect(reply.json["choices"]?.array == ["application/json", "application/yaml", "text/yaml"])
        }
    }
}

/// An app's own data counts against the document limit even where no screen shows it.
@Suite("Defined apps within the limits")
struct DefinedAppLimitTests {
    @Test func dataNoScreenShowsCannotGrowPastTheDocumentLimit() throws {
        let definition = """
            {"name": "notes", "root": "Main", "data": {"notes": []},
             "coordinators": {"Main": {"kind": "stack", "initial": "home",
               "routes": {"home": {"kind": "root", "target": "Home"}},
               "events": {"add": {"fields": ["text"], "data": [{"append": "notes", "value": "{{fields.text}}"}]}}}},
             "screens": {"Home": {"title": "Notes"}}}
            """
        try withServer({ configuration in
            configuration.apps = [try! NavigationApp(definition: definition)]
            configuration.maxDocumentBytes = 16 * 1024
        }) { server in
            let session = try server.post("/api/sessions", nil)
            let id = try #require(session.json["session"]?.stringValue)
            let item = try #require(session.json["visible"]?["item"]?.stringValue)
            let text = String(repeating: "x", count: 1000)
            var statuses: [Int] = []
            for _ in 0..<20 {
                statuses.append(
                    try server.post(
                        "/api/sessions/\(id)/events",
                        #"{"from": "\#(item)", "name": "add", "fields": {"text": "\#(text)"}}"#
                    ).status)
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == 200 })
            #expect(statuses.last == 409)
            let refused = try server.post(
                "/api/sessions/\(id)/events", #"{"from": "\#(item)", "name": "add", "fields": {"text": "\#(text)"}}"#)
            #expect(refused.json["code"] == "documentTooLarge")
            #expect(
                try server.get("/api/sessions/\(id)").json["version"]
                    == .number(Double(statuses.count(where: { $0 == 200 }))))
        }
    }
}
