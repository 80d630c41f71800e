import Foundation
import Switchyard

/// What a suite file is not.
public struct SuiteFormatError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

extension TestSuite {
    /// The suite as JSON: `{"suite": "switchyard-paths", "format": 1, "app": {name, version}, "transitions",
    /// "cases": [{"name", "steps": [{"label", "endpoint", "body", "path", "redirected", "transition"}]}]}`.
    public var json: JSONValue {
        [
            "suite": "switchyard-paths", "format": 1,
            "app": ["name": .string(app.name), "version": .number(Double(app.version))],
            "transitions": .number(Double(transitions)),
            "cases": .array(
                cases.map { suiteCase in
                    [
                        "name": .string(suiteCase.name),
                        "steps": .array(
                            suiteCase.steps.map { step in
                                [
                                    "label": .string(step.label), "endpoint": .string(step.endpoint), "body": step.body,
                                    "path": .array(step.path.map { .string($0) }), "redirected": .bool(step.redirected),
                                    "transition": step.transition.map { .number(Double($0)) } ?? .null,
                                ]
                            }),
                    ]
                }),
        ]
    }

    /// A suite read from its JSON.
    public init(json: JSONValue) throws(SuiteFormatError) {
        guard json["suite"] == "switchyard-paths", json["format"] == 1 else {
            throw SuiteFormatError(description: "not a suite of `switchyard paths --format json` (format 1)")
        }
        guard let name = json["app"]?["name"]?.stringValue, case .number(let version)? = json["app"]?["version"],
            case .number(let transitions)? = json["transitions"], let cases = json["cases"]?.arrayValue
        else { throw SuiteFormatError(description: "the suite lacks its app, transitions or cases") }
        var read: [Case] = []
        for suiteCase in cases {
            var steps: [Step] = []
            for step in suiteCase["steps"]?.arrayValue ?? [] {
                guard let label = step["label"]?.stringValue, let endpoint = step["endpoint"]?.stringValue,
                    ["transitions", "events", "deeplinks"].contains(endpoint), let body = step["body"],
                    let path = step["path"]?.arrayValue?.compactMap(\.stringValue)
                else {
                    throw SuiteFormatError(
                        description: "a step of '\(suiteCase["name"]?.stringValue ?? "")' is malformed")
                }
                steps.append(
                    Step(
                        label: label, endpoint: endpoint, body: body, path: path,
                        redirected: step["redirected"] == .bool(true),
                        transition: step["transition"].flatMap { value in
                            if case .number(let index) = value { return Int(index) }
                            return nil
                        }))
            }
            read.append(Case(name: suiteCase["name"]?.stringValue ?? "", steps: steps))
        }
        self.init(app: AppVersion(name: name, version: Int(version)), transitions: Int(transitions), cases: read)
    }

    /// A suite read from its JSON file (`switchyard paths --format json`).
    ///
    /// - Throws: What reading or parsing the file throws, or ``SuiteFormatError``.
    public init(contentsOf file: URL) throws {
        try self.init(json: try JSONValue(parsing: Array(try Data(contentsOf: file))))
    }

    /// The suite as a bash script of curl commands: each case creates a session, sends its steps and checks the
    /// visible path each answer shows; exits 1 when one differs. `SERVER` (default `http://localhost:8080`).
    public var curlScript: String {
        let quote = { (text: String) in "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        var lines = [
            "#!/usr/bin/env bash",
            "# \(cases.count) cases covering \(transitions) transitions of \(app), made by `switchyard paths --format curl`.",
            "set -uo pipefail",
            "SERVER=${SERVER:-http://localhost:8080}",
            "failed=0",
            "send() { curl -sS -X POST \"$SERVER/api/sessions/$1/$2\" -H 'Content-Type: application/json' --data-binary \"$3\"; }",
            "expect() { case \"$1\" in *\"$2\"*) ;; *) echo \"FAIL: $3: expected $2\"; failed=1 ;; esac; }",
        ]
        for suiteCase in cases {
            lines.append("")
            lines.append("# \(suiteCase.name.replacingOccurrences(of: "\n", with: " "))")
            lines.append(
                "id=$(curl -sS -X POST \"$SERVER/api/sessions\" -H 'Content-Type: application/json' --data-binary "
                    + quote(String(decoding: (["app": .string(app.name)] as JSONValue).serialized(), as: UTF8.self))
                    + " | sed -n 's/.*\"session\":\"\\([^\"]*\\)\".*/\\1/p')")
            for step in suiteCase.steps {
                let path = String(
                    decoding: JSONValue.array(step.path.map { .string($0) }).serialized(), as: UTF8.self)
                lines.append(
                    "expect \"$(send \"$id\" \(step.endpoint) \(quote(String(decoding: step.body.serialized(), as: UTF8.self))))\" "
                        + "\(quote("\"path\":" + path)) \(quote(step.label))")
            }
            lines.append("curl -sS -o /dev/null -X DELETE \"$SERVER/api/sessions/$id\"")
        }
        lines.append("")
        lines.append("exit $failed")
        return lines.joined(separator: "\n") + "\n"
    }
}
