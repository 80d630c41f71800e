import Foundation
import Switchyard
import SwitchyardDefinitions
import SwitchyardExplorer
import Testing

/// `switchyard paths --format swift` writes what GeneratedPaths/ holds for the fixture Tests/explore/trap.yaml: the
/// Swift Testing file (compiled and run in this target as `TrappedPaths`) and its suite beside it. A change to the
/// generator or to the exploration shows here first; `SWITCHYARD_UPDATE_SNIPPETS=1` rewrites both files.
@Suite("Generated Swift paths")
struct GeneratedPathsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "GeneratedPaths")

    @Test func theCommittedFilesAreWhatPathsWritesNow() throws {
        let app = try TrappedPaths.app()
        let suite = try TestSuite(try AppExplorer(app: app).explore(), app: app)
        #expect(suite.swiftTypeName == "TrappedPaths")
        let written = [
            "TrappedPaths.swift": suite.swiftTestFile(suiteFile: "TrappedPaths.json"),
            "TrappedPaths.json": String(decoding: suite.json.serialized(), as: UTF8.self) + "\n",
        ]
        let update = ProcessInfo.processInfo.environment["SWITCHYARD_UPDATE_SNIPPETS"] == "1"
        for (name, text) in written.sorted(by: { $0.key < $1.key }) {
            let file = Self.folder.appendingPathComponent(name)
            if update { try Data(text.utf8).write(to: file) }
            let committed = try String(contentsOf: file, encoding: .utf8)
            #expect(committed == text, "\(name) differs from what paths writes now (SWITCHYARD_UPDATE_SNIPPETS=1)")
        }
    }

    @Test func typeNamesAreSwiftIdentifiers() {
        let names = ["todo-data", "mail", "2fa flow", "Café"].map(TestSuite.swiftTypeName(forApp:))
        #expect(names == ["TodoDataPaths", "MailPaths", "App2faFlowPaths", "CafPaths"])
    }
}
