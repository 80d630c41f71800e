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

/// Restoring to an earlier version, as a new change, in the middle of random walks.
@Suite("Restore to an earlier version")
struct RestoreToVersionTests {
    @Test(arguments: 0..<12)
    func theTreeComesBackAsItWasWithANewVersion(seed: UInt64) throws {
        var walker = DemoWalker(seed: seed)
        let engine = try TodoDemo.app.makeEngine()
        var saved: [(version: Int, restore: [UInt8], state: JSONValue)] = []
        for step in 0..<60 {
            walker.move(engine)
            saved.append((engine.version, try engine.restoreDocument(), engine.stateValue()))
            guard step % 10 == 9, let target = saved.randomElement(using: &walker.generator) else { continue }
            let before = engine.version
            try engine.restore(to: try JSONValue(parsing: target.restore))
            #expect(engine.version == before + 1, "a new change, not a step back")
            var expected = try #require(target.state.objectValue)
            var now = try #require(engine.stateValue().objectValue)
            #expect(now["version"] == .number(Double(before + 1)))
            for key in ["version", "nextId"] {
                expected[key] = nil
                now[key] = nil
            }
            #expect(
                JSONValue.object(now) == .object(expected), "seed \(seed), step \(step): back to v\(target.version)")
            // And it restores from its own restore document like any other state.
            let copy = try TodoDemo.app.restoreEngine(from: try JSONValue(parsing: engine.restoreDocument()))
            #expect(copy.stateDocument() == engine.stateDocument())
        }
    }

    @Test func aDocumentOfAnotherAppChangesNothing() throws {
        let engine = try TodoDemo.app.makeEngine()
        let before = engine.stateDocument()
        #expect(throws: NavigationError.self) {
            try engine.restore(to: [
                "tree": ["id": "n1", "type": "Other", "kind": "root", "root": ["id": "i2", "route": "x"]]
            ])
        }
        #expect(engine.stateDocument() == before)
    }
}
