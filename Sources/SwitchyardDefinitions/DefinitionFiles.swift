import Foundation
import Switchyard

/// App definitions read from files: each path a definition file (`.json`, `.yaml`, `.yml`), or a folder whose
/// definition files are all read (in name order, not descending into subfolders).
public struct DefinitionFiles: Sendable {
    /// One file: its path, the app it declares when it can be served, and what its check found.
    public struct File: Sendable {
        public let path: String
        public let app: NavigationApp?
        public let diagnostics: [DefinitionDiagnostic]
    }

    /// Every file read, in order.
    public let files: [File]

    /// Reads every definition at `paths`.
    public init(paths: [String]) {
        files = paths.flatMap(Self.expand).map(Self.read)
    }

    /// The apps of the files that can be served, in order.
    public var apps: [NavigationApp] { files.compactMap(\.app) }

    /// Whether any file has an error (it is not served).
    public var hasErrors: Bool { files.contains { $0.app == nil } }

    /// One line per finding, with the line and column in the file as compilers write them (editors link them):
    /// `apps/shop.json:12:21: error unknownTarget at /coordinators/…: … (did you mean …?)`.
    public var lines: [(severity: DefinitionDiagnostic.Severity, text: String)] {
        files.flatMap { file in
            file.diagnostics.map { finding in
                let place = finding.position.map { "\(file.path):\($0.line):\($0.column)" } ?? file.path
                return (finding.severity, "\(place): \(finding)")
            }
        }
    }

    private static func expand(_ path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { name in
            !name.hasPrefix(".") && [".json", ".yaml", ".yml"].contains { name.lowercased().hasSuffix($0) }
        }.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
    }

    private static func read(_ path: String) -> File {
        // The size first: a huge file is refused without being read.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > AppDefinition.maxBytes {
            return File(
                path: path, app: nil,
                diagnostics: [
                    DefinitionDiagnostic(
                        .error, "tooLarge", at: "", "the file has \(size) bytes, more than \(AppDefinition.maxBytes)")
                ])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return File(
                path: path, app: nil,
                diagnostics: [
                    DefinitionDiagnostic(.error, "unreadableFile", at: "", "the file cannot be read (does it exist?)")
                ])
        }
        guard data.count <= AppDefinition.maxBytes, let text = String(data: data, encoding: .utf8) else {
            return File(
                path: path, app: nil,
                diagnostics: [
                    DefinitionDiagnostic(
                        .error, data.count > AppDefinition.maxBytes ? "tooLarge" : "notUTF8", at: "",
                        data.count > AppDefinition.maxBytes
                            ? "the file has \(data.count) bytes, more than \(AppDefinition.maxBytes)"
                            : "the file is not UTF-8 text")
                ])
        }
        let loaded = AppDefinition.load(text, format: DefinitionFormat(fileName: path))
        return File(path: path, app: loaded.definition.map(NavigationApp.init), diagnostics: loaded.diagnostics)
    }
}
