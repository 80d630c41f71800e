import Switchyard
import SwitchyardDefinitions
import Testing

/// Templates nested over lists ask for the product of the lists' lengths: no rendering may run past its budget,
/// whatever the data grows to, and no session starts on a document past the limits a change obeys.
@Suite("Rendering within budget")
struct RenderingBombTests {
    /// A screen whose title nests `depth` sections over the list `l` (which starts with `items`), and an event that
    /// appends to it.
    private func nested(depth: Int, items: Int) -> String {
        let title =
            String(repeating: "{{#data.l}}", count: depth) + "x" + String(repeating: "{{/data.l}}", count: depth)
        let list = (0..<items).map(String.init).joined(separator: ",")
        return """
            {"name": "bomb", "root": "M", "data": {"l": [\(list)]},
             "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}},
               "events": {"add": {"data": [{"append": "l", "value": 1}]}}}},
             "screens": {"H": {"title": "\(title)"}}}
            """
    }

    @Test func aDefinitionThatChecksCleanCannotBeArmedLaterByData() throws {
        let definition = nested(depth: 4, items: 1)
        #expect(AppDefinition.load(definition).diagnostics.isEmpty)
        try withServer({ $0.apps = [try! NavigationApp(definition: definition)] }) { server in
            let session = try server.post("/api/sessions", nil)
            let id = try #require(session.json["session"]?.stringValue)
            var last = session
            for _ in 0..<40 {
                last = try server.post("/api/sessions/\(id)/events", #"{"name": "add"}"#)
                if last.status != 200 { break }
            }
            // 4 sections over 15 elements ask for 15^4 renderings of their text and more: past 100,000 steps.
            #expect(last.status == 409)
            #expect(last.json["code"] == "renderingBudgetExceeded")
            guard case .number(let version)? = try server.get("/api/sessions/\(id)").json["version"] else {
                Issue.record("no version")
                return
            }
            #expect(version >= 10 && version < 40)
            #expect(try server.get("/healthz").status == 200)
        }
    }

    @Test func aSessionThatWouldStartPastTheBudgetIsNotCreated() throws {
        // It checks clean (4 sections, counted as lists of 10), but its data starts with 20 elements: 20^4.
        try withServer({ $0.apps = [try! NavigationApp(definition: nested(depth: 4, items: 20))] }) { server in
            let reply = try server.post("/api/sessions", nil)
            #expect(reply.status == 500)
            #expect(reply.json["code"] == "renderingBudgetExceeded")
            #expect(try server.get("/healthz").status == 200)
        }
    }

    /// A screen of one section and one tag (21 steps as check counts them) whose tag sorts the whole list for each
    /// element: a transform costs a step per element it reads, so the budget, not the CPU, runs out.
    @Test func aTransformOverAListCostsItsLength() throws {
        let list = (0..<5_000).map(String.init).joined(separator: ",")
        let definition = """
            {"name": "sorts", "root": "M", "data": {"l": [\(list)]},
             "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}}}},
             "screens": {"H": {"title": "{{#data.l}}{{count(sorted(data.l))}}{{/data.l}}"}}}
            """
        #expect(AppDefinition.load(definition).diagnostics.isEmpty)
        try withServer({ $0.apps = [try! NavigationApp(definition: definition)] }) { server in
            let reply = try server.post("/api/sessions", nil)
            #expect(reply.status == 500)
            #expect(reply.json["code"] == "renderingBudgetExceeded")
        }
    }

    /// Rows of literal text are not free: a bound list of 3,000 rows of 1 KB stops at the budget's 2 MiB.
    @Test func textWithoutTagsCountsAgainstTheBudget() throws {
        let list = (0..<3_000).map(String.init).joined(separator: ",")
        let text = String(repeating: "x", count: 1_000)
        let definition = """
            {"name": "rows", "root": "M", "data": {"l": [\(list)]},
             "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}}}},
             "screens": {"H": {"title": "Rows", "content": [{"type": "list", "items": "data.l", "row": {"id": "{{item}}", "title": "\(text)"}}]}}}
            """
        try withServer({ configuration in
            configuration.apps = [try! NavigationApp(definition: definition)]
            configuration.maxDocumentBytes = 64 << 20
        }) { server in
            let reply = try server.post("/api/sessions", nil)
            #expect(reply.status == 500)
            #expect(reply.json["code"] == "renderingBudgetExceeded")
        }
    }

    /// A handler whose templates run out of budget applies nothing: its data operation would store text cut short.
    @Test func aHandlerPastTheBudgetAppliesNothing() throws {
        let list = (0..<20).map(String.init).joined(separator: ",")
        let nested = String(repeating: "{{#data.l}}", count: 4) + "x" + String(repeating: "{{/data.l}}", count: 4)
        let definition = """
            {"name": "handler", "root": "M", "data": {"l": [\(list)], "note": ""},
             "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}},
               "events": {"note": {"data": [{"set": "note", "value": "\(nested)"}]}}}},
             "screens": {"H": {"title": "Note"}}}
            """
        try withServer({ $0.apps = [try! NavigationApp(definition: definition)] }) { server in
            let session = try server.post("/api/sessions", nil)
            let id = try #require(session.json["session"]?.stringValue)
            let refused = try server.post("/api/sessions/\(id)/events", #"{"name": "note"}"#)
            #expect(refused.status == 409)
            #expect(refused.json["code"] == "renderingBudgetExceeded")
            #expect(try server.get("/api/sessions/\(id)").json["version"] == 0)
        }
    }

    @Test func checkFindsTemplatesWhoseWorstCaseIsPastTheBudget() {
        let found = AppDefinition.load(nested(depth: 32, items: 4)).diagnostics
        #expect(found.map(\.code) == ["renderingBudget"])
        #expect(found.first?.pointer == "/screens/H")
    }

    @Test func theFirstDocumentObeysTheDocumentLimit() throws {
        let big = String(repeating: "x", count: 20_000)
        let definition = """
            {"name": "big", "root": "M", "data": {"big": "\(big)"},
             "coordinators": {"M": {"kind": "stack", "initial": "h", "routes": {"h": {"kind": "root", "target": "H"}}}},
             "screens": {"H": {"title": "{{data.big}}"}}}
            """
        try withServer({ configuration in
            configuration.apps = [try! NavigationApp(definition: definition)]
            configuration.maxDocumentBytes = 16 * 1024
        }) { server in
            let reply = try server.post("/api/sessions", nil)
            #expect(reply.status == 500)
            #expect(reply.json["code"] == "documentTooLarge")
            #expect(reply.json["limit"] == .number(16 * 1024))
        }
    }
}

/// The definition check needs no token: it is bounded on its own.
@Suite("The definition check's own limits")
struct DefinitionCheckLimitTests {
    private let yaml =
        "name: hello\nroot: Main\ncoordinators: {Main: {kind: stack, initial: h, routes: {h: {kind: root, target: H}}}}\nscreens: {H: {title: Hi}}\n"

    @Test func aDefinitionPastTheCheckLimitIs413() throws {
        try withServer({ $0.maxDefinitionCheckBytes = 1024 }) { server in
            let padded = yaml + String(repeating: "# padding\n", count: 200)
            let reply = try server.request(
                "POST", "/api/definitions/check", body: padded, contentType: "application/yaml")
            #expect(reply.status == 413)
            #expect(reply.json["code"] == "definitionTooLarge")
        }
    }

    @Test func anAddressPastItsRateIs429WithRetryAfter() throws {
        try withServer({ $0.definitionChecksPerMinute = 2 }) { server in
            var statuses: [Int] = []
            var last: Reply?
            for _ in 0..<3 {
                let reply = try server.request(
                    "POST", "/api/definitions/check", body: yaml, contentType: "application/yaml")
                statuses.append(reply.status)
                last = reply
            }
            #expect(statuses == [200, 200, 429])
            #expect(last?.json["code"] == "tooManyChecks")
            #expect(last?.header("Retry-After") != nil)
        }
    }

    @Test func checksPastTheConcurrencyLimitAreAnswered503AtOnce() throws {
        try withServer({ $0.concurrentDefinitionChecks = 0 }) { server in
            let reply = try server.request(
                "POST", "/api/definitions/check", body: yaml, contentType: "application/yaml")
            #expect(reply.status == 503)
            #expect(reply.json["code"] == "checkBusy")
            #expect(reply.header("Retry-After") == "1")
        }
    }
}
