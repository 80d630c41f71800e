import Switchyard
import Testing

/// The screens' renderings the sessions keep (`SessionConfiguration.maxRenderingBytes`): bounded across sessions,
/// shown in the metrics, and never in what a client reads.
@Suite("Kept screen renderings")
struct RenderingBudgetTests {
    /// The same walk through the demo in `count` sessions: every answer and read, without its session id.
    private func walk(_ server: TestServer, sessions count: Int) throws -> [JSONValue] {
        var answers: [JSONValue] = []
        for _ in 0..<count {
            let session = try server.createSession()
            try session.logIn()
            let replies = [
                try session.transition(
                    #"{"coordinator":"AuthenticatedCoordinator","steps":[{"action":"focus","route":"todos"}]}"#),
                try session.transition(
                    #"{"coordinator":"TodosCoordinator","steps":[{"action":"push","route":"todo","input":"buy-milk"}]}"#
                ),
                try session.event(#"{"name":"toggleFavourite","payload":{"id":"buy-milk"}}"#),
                try session.transition(#"{"coordinator":"TodosCoordinator","steps":[{"action":"pop"}]}"#),
                try session.event(#"{"name":"setAdminMode","fields":{"adminMode":"true"}}"#),
                try session.state(),
            ]
            for reply in replies {
                var document = try #require(try session.must(reply).json.objectValue)
                document["session"] = nil
                answers.append(.object(document))
            }
        }
        return answers
    }

    private func renderingBytes(_ server: TestServer) throws -> Int? {
        let metrics = try server.get("/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("switchyard_screen_rendering_bytes ") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") }
    }

    @Test func answersAreTheSameWithAndWithoutRenderingsAndTheirMemoryStaysInItsBudget() throws {
        let budget = 12 * 1024  // about three of the demo's sessions
        let kept = try withServer({ $0.maxRenderingBytes = budget }) { server in
            let answers = try walk(server, sessions: 12)
            let bytes = try #require(try renderingBytes(server))
            #expect(bytes > 0 && bytes <= budget, "\(bytes) bytes kept")
            return answers
        }
        let none = try withServer({ $0.maxRenderingBytes = 0 }) { server in
            let answers = try walk(server, sessions: 12)
            #expect(try renderingBytes(server) == 0)
            return answers
        }
        #expect(kept.count == none.count)
        for (index, (with, without)) in zip(kept, none).enumerated() {
            #expect(with == without, "answer \(index)")
        }
        // The walk shows what the kept renderings must not hide: a favourite starred, and the admin switch on.
        let list = kept[kept.count - 3]["visible"]?["screen"]?["content"]?.array?.first?["rows"]?.array
        #expect(list?.first { $0["id"] == "buy-milk" }?["icon"] == "star.fill")
        #expect(kept.last?["tree"]?.jsonString.contains(#""isOn":true"#) == true)
    }
}
