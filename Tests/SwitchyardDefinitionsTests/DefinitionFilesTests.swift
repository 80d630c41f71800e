import Foundation
import SwitchyardDefinitions
import Testing

/// A folder of definitions may be a project's folder (`docker run -v "$PWD:/apps"`): its other JSON and YAML files
/// are left out and named, its definitions read, and a file that does not parse is still an error.
@Suite("Definition files")
struct DefinitionFilesTests {
    /// A folder holding `files` (name -> contents), removed after `body`.
    private func withFolder<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("definition-files-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try body(folder.path)
    }

    private static let project: [String: String] = [
        "shop.yaml": """
        name: shop
        root: Main
        coordinators:
          Main: {kind: stack, initial: home, routes: {home: {kind: root, target: Home}}}
        screens:
          Home: {title: Shop}
        """,
        "package.json": #"{"name": "my-project", "version": "1.0.0", "scripts": {"test": "node --test"}}"#,
        "ci.yml":
            "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n",
        "list.yaml": "- one\n- two\n",
        "half.json": #"{"name": "half", "root": "Main"}"#,
        "unfinished.json": #"{"name": "shop", "root": "#,
    ]

    @Test func aFolderServesItsDefinitionsAndLeavesOutOtherFiles() throws {
        try withFolder(Self.project) { folder in
            let definitions = DefinitionFiles(paths: [folder])
            #expect(definitions.apps.map(\.name) == ["shop"])
            // A file with "root" or "coordinators" is read as a definition, and one that does not parse is an error.
            #expect(
                definitions.files.map { ($0.path as NSString).lastPathComponent } == [
                    "half.json", "shop.yaml", "unfinished.json",
                ])
            #expect(definitions.files[0].diagnostics.contains { $0.code == "missingMember" })
            #expect(definitions.files[2].diagnostics.map(\.code) == ["invalidJSON"])
            #expect(definitions.hasErrors)
            #expect(
                definitions.skippedLines == [
                    "\(folder)/ci.yml: not an app definition (no \"root\" or \"coordinators\" at its top level), skipped",
                    "\(folder)/list.yaml: not an app definition (its top level is not a mapping), skipped",
                    "\(folder)/package.json: not an app definition (no \"root\" or \"coordinators\" at its top level), "
                        + "skipped",
                ])
        }
    }

    @Test func aFileNamedByItsPathIsAlwaysReadAsADefinition() throws {
        try withFolder(Self.project) { folder in
            let definitions = DefinitionFiles(paths: ["\(folder)/package.json"])
            #expect(definitions.skipped.isEmpty)
            #expect(definitions.files.count == 1)
            #expect(definitions.files[0].app == nil)
            #expect(definitions.files[0].diagnostics.contains { $0.code == "missingMember" && $0.pointer == "" })
        }
    }

    @Test func aFolderOfDefinitionsOnlyLeavesNothingOut() throws {
        try withFolder(["shop.yaml": Self.project["shop.yaml"]!]) { folder in
            let definitions = DefinitionFiles(paths: [folder])
            #expect(definitions.skipped.isEmpty && !definitions.hasErrors)
            #expect(definitions.apps.map(\.name) == ["shop"])
        }
    }
}
