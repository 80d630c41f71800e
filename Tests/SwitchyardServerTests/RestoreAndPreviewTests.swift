import Switchyard
import SwitchyardServer
import SwitchyardSessions
import Testing

/// Restoring an earlier version as a new change, and dry runs of changes.
@Suite("Restore to a version and preview")
struct RestoreAndPreviewTests {
    @Test func restoringAnEarlierVersionIsANewChangeThatStreamsFollow() throws {
        let store = try TemporaryStore()
        try store.withServer { server, _ in
            let session = try server.createSession()
            try session.logIn()
            let loggedIn = try session.state()
            try session.must(session.deepLink("stinsenapp://todo/buy-milk"))
            try session.must(session.event(#"{"name":"toggleFavourite","payload":{"id":"buy-milk"}}"#))
            let stream = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            #expect(try stream.next()?.id == "4")

            let restored = try session.must(server.post(session.base + "/restore", #"{"version":2}"#))
            #expect(restored.version == 5, "a new version, not a step back")
            #expect(restored.json["result"]?["restoredFrom"] == 2)
            #expect(restored.path == loggedIn.path)
            var expected = try #require(loggedIn.json.objectValue)
            var now = try #require(try session.state().json.objectValue)
            for key in ["version", "nextId"] {
                expected[key] = nil
                now[key] = nil
            }
            #expect(JSONValue.object(now) == .object(expected), "the tree and the data of version 2")
            #expect(try stream.nextState(atLeast: 5)?.json["version"] == 5)
            let last = try server.get(session.base + "/history").json["entries"]?.array?.last
            #expect(last?["source"] == "restore")
            #expect(last?["request"] == ["version": 2])

            #expect(try server.post(session.base + "/restore", #"{"version":9}"#).json["code"] == "unknownVersion")
            #expect(try server.post(session.base + "/restore", #"{"version":-1}"#).status == 400)
            #expect(try server.post(session.base + "/restore", #"{}"#).status == 400)
            let stale = try server.post(session.base + "/restore", #"{"version":1,"expectedVersion":3}"#)
            #expect(stale.status == 412)
            #expect(try session.state().version == 5, "refusals changed nothing")
        }
    }

    @Test func theMemoryStoreRestoresWhatItKeeps() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.must(session.event(#"{"name":"completeOnboarding"}"#))
            #expect(try server.post(session.base + "/restore", #"{"version":0}"#).version == 2)
        }
        try withServer({ $0.archive = MemorySessionArchive(limits: StoreLimits(historyEntries: 1)) }) { server in
            let session = try server.createSession()
            try session.logIn()
            let refused = try server.post(session.base + "/restore", #"{"version":1}"#)
            #expect(refused.status == 404)
            #expect(refused.json["code"] == "versionNotKept")
        }
    }

    @Test func aPreviewShowsTheWouldBeStateAndCommitsNothing() throws {
        try withServer { server in
            let session = try server.createSession()
            try session.logIn()
            let before = try session.state()
            let history = try session.history().text
            let stream = try StreamSubscriber(port: server.port, path: session.base + "/stream")
            #expect(try stream.next()?.id == "2")

            let preview = try server.post(
                session.base + "/preview/deeplinks", #"{"url":"stinsenapp://todo/buy-milk"}"#,
                headers: [("Idempotency-Key", "p-1")])
            #expect(preview.status == 200)
            #expect(preview.json["version"] == 2)
            #expect(preview.json["result"]?["deepLink"] == "opened")
            let state = try #require(preview.json["state"])
            #expect(state["visible"]?["path"] == ["authenticated", "todos", "list", "todo"])
            let patch = try #require(preview.json["patch"])
            #expect(try JSONPatch.apply(patch, to: before.json) == state, "the patch leads from now to the preview")

            #expect(try session.state().text == before.text, "nothing changed")
            #expect(try session.history().text == history)
            #expect(try stream.next(within: 0.5) == nil, "no stream event")
            let real = try session.must(session.deepLink("stinsenapp://todo/buy-milk"))
            #expect(real.version == 3)
            var previewed = try #require(state.objectValue)
            var applied = try #require(real.json.objectValue)
            for key in ["version", "result"] {
                previewed[key] = nil
                applied[key] = nil
            }
            #expect(JSONValue.object(previewed) == .object(applied), "the preview is what the change did")

            // A coordinator's data changes only on the copy.
            let toggle = try server.post(
                session.base + "/preview/events", #"{"name":"toggleFavourite","payload":{"id":"buy-milk"}}"#)
            #expect(toggle.status == 200)
            let previewedSwitch = toggle.json["state"]?["visible"]?["screen"]?["content"]?[2]
            #expect(previewedSwitch?["isOn"] == true)
            #expect(try session.state().json["visible"]?["screen"]?["content"]?[2]?["isOn"] == false)
        }
    }

    @Test func aPreviewOfARefusedChangeGetsTheSameProblem() throws {
        try withServer { server in
            let session = try server.createSession()
            for (path, body) in [
                ("transitions", #"{"action":"pop"}"#), ("events", #"{"name":"nobodyHandlesThis"}"#),
                ("deeplinks", #"{"url":"nowhere://x"}"#), ("transitions", "not json"),
            ] {
                let real = try server.post(session.base + "/" + path, body)
                let preview = try server.post(session.base + "/preview/" + path, body)
                #expect(real.status >= 400)
                #expect(preview.status == real.status, "\(path) \(body)")
                #expect(preview.json["code"] == real.json["code"])
            }
            #expect(try session.state().version == 0)
        }
    }
}
