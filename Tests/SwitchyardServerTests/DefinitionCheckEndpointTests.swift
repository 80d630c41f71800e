import Switchyard
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
