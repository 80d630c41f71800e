import Foundation
import Switchyard

/// App definitions read from files: each path a definition file (`.json`, `.yaml`, `.yml`), or a folder whose
/// definitions are all read (in name order, not descending into subfolders).
///
/// A folder may hold other JSON and YAML files (a project's `package.json`, a CI workflow, a compose file): a file
/// of a folder whose top level is not a mapping with `root` or `coordinators` is not an app definition, and is
/// left out (``skipped``, each named with the reason). One that cannot be parsed is still an error: it may be a
/// definition being written. A file named by its own path is always read as a definition.
public struct DefinitionFiles: Sendable {
    /// One file: its path, the app it declares when it can be served, and what its check found.
    public struct File: Sendable {
        public let path: String
        public let app: NavigationApp?
        public let diagnostics: [DefinitionDiagnostic]
    }

    /// A file of a folder that is not an app definition: its path and why not.
    public struct Skipped: Sendable, Equatable {
        public let path: String
        public let reason: String
    }

    /// Every file read, in order.
    public let files: [File]

    /// The files of folders left out as not app definitions, in order.
    public let skipped: [Skipped]

    /// Reads every definition at `paths`.
    public init(paths: [String]) {
        var files: [File] = []
        var skipped: [Skipped] = []
        for path in paths {
            let (names, isFolder) = Self.expand(path)
            for name in names {
                switch Self.read(name, inFolder: isFolder) {
                case .read(let file): files.append(file)
                case .skipped(let left): skipped.append(left)
                }
            }
        }
        self.files = files
        self.skipped = skipped
    }

    /// One line per file left out: `apps/package.json: not an app definition (no "root" or "coordinators" at its
    /// top level), skipped`.
    public var skippedLines: [String] {
        skipped.map { "\($0.path): not an app definition (\($0.reason)), skipped" }
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

    /// The files at `path` (itself, or a folder's definition files) and whether they come from a folder.
    private static func expand(_ path: String) -> (names: [String], isFolder: Bool) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            return ([path], false)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let files = names.filter { name in
            !name.hasPrefix(".") && [".json", ".yaml", ".yml"].contains { name.lowercased().hasSuffix($0) }
        }.sorted().map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
        return (files, true)
    }

    private enum Outcome {
        case read(File)
        case skipped(Skipped)
    }

    /// Why `value`, the top level of a file, is not an app definition; nil when it may be one.
    private static func notADefinition(_ value: JSONValue) -> String? {
        guard case .object(let members) = value else { return "its top level is not a mapping" }
        return members["root"] == nil && members["coordinators"] == nil
            ? "no \"root\" or \"coordinators\" at its top level" : nil
    }

    private static func read(_ path: String, inFolder: Bool) -> Outcome {
        let text: String
        switch contents(path) {
        case .success(let read): text = read
        case .failure(let finding): return .read(File(path: path, app: nil, diagnostics: [finding]))
        }
        let format = DefinitionFormat(fileName: path)
        let loaded: (definition: AppDefinition?, diagnostics: [DefinitionDiagnostic])
        if inFolder, case .success(let value) = format.parse(text) {
            if let reason = notADefinition(value) { return .skipped(Skipped(path: path, reason: reason)) }
            loaded = AppDefinition.load(parsed: value, text: text, format: format)
        } else {
            loaded = AppDefinition.load(text, format: format)
        }
        return .read(File(path: path, app: loaded.definition.map(NavigationApp.init), diagnostics: loaded.diagnostics))
    }

    /// The text of the file at `path`, or the finding when it is too large, unreadable or not UTF-8.
    private static func contents(_ path: String) -> Result<String, DefinitionDiagnostic> {
        // The size first: a huge file is refused without being read.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > AppDefinition.maxBytes {
            return .failure(
                DefinitionDiagnostic(
                    .error, "tooLarge", at: "", "the file has \(size) bytes, more than \(AppDefinition.maxBytes)"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(
                DefinitionDiagnostic(.error, "unreadableFile", at: "", "the file cannot be read (does it exist?)"))
        }
        guard data.count <= AppDefinition.maxBytes, let text = String(data: data, encoding: .utf8) else {
            return .failure(
                DefinitionDiagnostic(
                    .error, data.count > AppDefinition.maxBytes ? "tooLarge" : "notUTF8", at: "",
                    data.count > AppDefinition.maxBytes
                        ? "the file has \(data.count) bytes, more than \(AppDefinition.maxBytes)"
                        : "the file is not UTF-8 text"))
        }
        return .success(text)
    }
}
