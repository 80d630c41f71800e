import Switchyard
import Testing
import TodoDemo

/// The property kept renderings rely on: the screens of the demo, and those of its twin written as data, give a
/// `contentRevision` that moves whenever what they show does, so on random walks a document written from kept
/// renderings is byte for byte one written afresh.
@Suite("Kept renderings on random walks")
struct RenderingWalkTests {
    @Test(arguments: 0..<16)
    func theDemosDocumentsAreTheOnesWrittenAfresh(seed: UInt64) throws {
        try walk(TodoDemo.app, seed: seed)
    }

    @Test(arguments: 0..<16)
    func theDataTwinsDocumentsAreTheOnesWrittenAfresh(seed: UInt64) throws {
        try walk(try DataTwinTests.twin(), seed: seed)
    }

    /// Walks `app` at random with renderings kept, as the server keeps them, through the paths that give item ids
    /// again: now and then the commit check refuses a change after writing its document (as a size limit does), or
    /// the session is restored to an earlier version.
    private func walk(_ app: NavigationApp, seed: UInt64) throws {
        var walker = DemoWalker(seed: seed)
        let engine = try app.makeEngine()
        let renderings = ScreenRenderings()
        engine.screenRenderings = renderings
        // Every commit renders its document, as the server's policy does; a refusing one renders it, then refuses.
        let accepting = CommitPolicy(makesRestoreDocuments: false)
        let refusing = CommitPolicy(maxDocumentBytes: 0, makesRestoreDocuments: false)
        engine.commitPolicy = accepting
        var earlier: [JSONValue] = []
        var kept = 0
        for step in 0..<80 {
            engine.commitPolicy = walker.coin() && walker.coin() && walker.coin() ? refusing : accepting
            walker.move(engine)
            engine.commitPolicy = accepting
            if let back = earlier.randomElement(using: &walker.generator), walker.coin() && walker.coin() {
                _ = try? engine.restore(to: back)  // a guard may refuse it now
            }
            earlier.append(try JSONValue(parsing: engine.restoreDocument()))
            kept += renderings.count
            let fromRenderings = String(decoding: engine.stateDocument(), as: UTF8.self)
            engine.screenRenderings = nil
            let afresh = String(decoding: engine.stateDocument(), as: UTF8.self)
            engine.screenRenderings = renderings
            guard fromRenderings == afresh else {
                let at = zip(fromRenderings, afresh).prefix { $0 == $1 }.count
                let around = String(fromRenderings.dropFirst(max(at - 80, 0)).prefix(160))
                Issue.record("seed \(seed), step \(step) (\(walker.log.last ?? "")): differs at \(at): \(around)")
                return
            }
        }
        #expect(kept > 0, "the walk kept renderings")
    }
}
