import Switchyard
import Testing
import TodoDemo

/// What the live stream relies on: along a random walk through the demo, applying each version's JSON Patch to the
/// document before it (as an order-preserving client does) gives that version's document byte for byte.
@Suite("Patches reproduce the documents on random walks")
struct PatchWalkTests {
    @Test(arguments: 0..<16)
    func everyPatchGivesTheNextDocumentByteForByte(seed: UInt64) throws {
        var walker = DemoWalker(seed: seed)
        let engine = try TodoDemo.app.makeEngine()
        var previous = engine.stateDocument(session: "walk")
        var version = engine.version
        var client = try OrderedJSON(text: previous)
        var patchBytes = 0
        var documentBytes = 0
        for step in 0..<150 {
            walker.move(engine)
            guard engine.version != version else { continue }
            let document = engine.stateDocument(session: "walk")
            let patch = JSONPatch.diff(from: previous, to: document, testing: [("/version", .number(Double(version)))])
            try client.apply(patch: patch)
            let rebuilt = client.text
            #expect(
                String(decoding: rebuilt, as: UTF8.self) == String(decoding: document, as: UTF8.self),
                "seed \(seed), step \(step): \(walker.log.last ?? "")\npatch \(String(decoding: patch, as: UTF8.self))")
            guard rebuilt == document else { return }
            patchBytes += patch.count
            documentBytes += document.count
            previous = document
            version = engine.version
        }
        #expect(patchBytes < documentBytes / 2, "patches are smaller than documents: \(patchBytes) of \(documentBytes)")
    }

    /// A patch whose `test` names another version does not apply: a client that missed a version notices.
    @Test func aPatchForAnotherVersionIsRefused() throws {
        let engine = try TodoDemo.app.makeEngine()
        let first = engine.stateDocument()
        try engine.perform([Step(.root(route: "authenticated", input: "ada"))])
        let patch = JSONPatch.diff(from: first, to: engine.stateDocument(), testing: [("/version", 7)])
        var client = try OrderedJSON(text: first)
        #expect(throws: OrderedJSON.Failure.self) { try client.apply(patch: patch) }
    }
}
