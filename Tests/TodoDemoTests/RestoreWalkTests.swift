import Switchyard
import Testing
import TodoDemo

/// The property the durable store relies on: after every step of a random walk through the demo, the restore
/// document restores to the live state, byte for byte.
@Suite("Restore equals live on random walks")
struct RestoreWalkTests {
    @Test(arguments: 0..<24)
    func everyStepRestoresByteForByte(seed: UInt64) throws {
        var walker = DemoWalker(seed: seed)
        var engine = try TodoDemo.app.makeEngine()
        for step in 0..<80 {
            walker.move(engine)
            let stored = try engine.restoreDocument()
            let restored = try TodoDemo.app.restoreEngine(from: try JSONValue(parsing: stored))
            let live = String(decoding: engine.stateDocument(), as: UTF8.self)
            let back = String(decoding: restored.stateDocument(), as: UTF8.self)
            #expect(back == live, "seed \(seed), step \(step): \(walker.log.last ?? "")")
            #expect(try restored.restoreDocument() == stored, "seed \(seed), step \(step)")
            guard back == live else { return }
            // Walk on from the restored engine half the time: it must behave as the live one would.
            if walker.coin() { engine = restored }
        }
    }

    /// The walks reach every flow: a property that held only on the welcome screen would prove nothing.
    @Test func theWalksCoverEveryFlow() throws {
        var seen = Set<String>()
        for seed in 0..<24 as Range<UInt64> {
            var walker = DemoWalker(seed: seed)
            let engine = try TodoDemo.app.makeEngine()
            for _ in 0..<80 { walker.move(engine) }
            seen.formUnion(walker.coverage)
        }
        let flows = [
            "event completeOnboarding", "event login", "event next", "event register", "event create",
            "event toggleFavourite", "event openTodo", "event logout", "deep link pending", "deep link opened",
            "pending link completed", "alert answered", "gesture back", "gesture dismiss", "tab selected",
            "transition", "data changed",
        ]
        for flow in flows {
            #expect(seen.contains(flow), "no walk reached '\(flow)'")
        }
    }

}
