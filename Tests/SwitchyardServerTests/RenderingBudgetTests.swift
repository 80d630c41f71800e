import Switchyard
import SwitchyardSessions
import Testing
import TodoDemo

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

    /// Writes `engine`'s state document and tells `budget`, as the change pipeline does after a change.
    private func write(_ engine: NavigationEngine, _ budget: RenderingBudget) {
        _ = engine.stateDocument()
        if let renderings = engine.screenRenderings { budget.account(renderings) }
    }

    /// Engines of the demo that take turns writing documents, each with renderings from `budget`.
    private func engines(_ count: Int, _ budget: RenderingBudget) throws -> [NavigationEngine] {
        try (0..<count).map { _ in
            let engine = try TodoDemo.app.makeEngine()
            engine.screenRenderings = budget.makeRenderings()
            return engine
        }
    }

    @Test func aBudgetTakenInTurnsKeepsItsBookkeepingBounded() throws {
        let one = try TodoDemo.app.makeEngine()
        one.screenRenderings = ScreenRenderings()
        _ = one.stateDocument()
        let size = try #require(one.screenRenderings?.bytes)
        // Room for two of three engines: each document brings one back and drops the oldest.
        let budget = RenderingBudget(maxBytes: 2 * size + size / 2)
        let engines = try engines(3, budget)
        for round in 0..<2_000 {
            write(engines[round % 3], budget)
        }
        #expect(budget.bytes <= budget.maxBytes)
        #expect(budget.bookkeeping.renderings == 2)
        #expect(budget.bookkeeping.uses < 200, "\(budget.bookkeeping.uses) uses listed")
        // Renderings larger than the whole budget drop themselves, and leave nothing listed.
        let small = RenderingBudget(maxBytes: size / 2)
        let alone = try self.engines(1, small)[0]
        for _ in 0..<500 { write(alone, small) }
        #expect(small.bytes == 0 && alone.screenRenderings?.bytes == 0)
        #expect(small.bookkeeping.renderings == 0 && small.bookkeeping.uses < 200)
    }

    @Test func renderingsFreedWithTheirEngineLeaveTheCount() throws {
        let budget = RenderingBudget(maxBytes: 1 << 20)
        var engines = try engines(5, budget)
        for engine in engines { write(engine, budget) }
        #expect(budget.bookkeeping.renderings == 5 && budget.bytes > 0)
        engines.removeAll()
        #expect(budget.bookkeeping.renderings == 0)
        #expect(budget.bytes == 0)
    }

    @Test func renderingsDroppedByTheirEngineLeaveTheCount() throws {
        let budget = RenderingBudget(maxBytes: 1 << 20)
        let engine = try engines(1, budget)[0]
        write(engine, budget)
        #expect(budget.bytes > 0)
        engine.screenRenderings?.removeAll()
        budget.account(try #require(engine.screenRenderings))
        #expect(budget.bytes == 0 && budget.bookkeeping.renderings == 0)
    }
}
