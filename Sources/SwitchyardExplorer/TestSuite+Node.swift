import Switchyard

extension TestSuite {
    /// The suite as a test file for Node's own runner (`node --test`, Node 20 or newer) driving a server through
    /// Switchyard's JavaScript client: a test per case, which creates a session, sends its steps, checks the
    /// visible path after each (a step a guard redirects answers a `redirected` problem holding the new state) and
    /// removes the session. The file imports the client from `SWITCHYARD_CLIENT` (a path or URL) or from
    /// `switchyard-client.js` beside it (the page serves it at `/js/switchyard-client.js`; it is
    /// `Public/js/switchyard-client.js` in the Switchyard package); the server is `SERVER` (default
    /// `http://localhost:8080`).
    public var nodeTestFile: String {
        let quote = { (text: String) in String(decoding: JSONValue.string(text).serialized(), as: UTF8.self) }
        var lines = [
            "// \(cases.count) cases covering \(transitions) transitions of \(app), made by `switchyard paths --format node`.",
            "// Run: SERVER=http://localhost:8080 node --test THIS_FILE (with switchyard-client.js beside it, or",
            "// SWITCHYARD_CLIENT=path/to/switchyard-client.js).",
            "import { test } from 'node:test';",
            "import assert from 'node:assert/strict';",
            "import { pathToFileURL } from 'node:url';",
            "",
            "const clientURL = process.env.SWITCHYARD_CLIENT",
            "  ? (/^[a-z]+:/.test(process.env.SWITCHYARD_CLIENT) ? process.env.SWITCHYARD_CLIENT",
            "    : pathToFileURL(process.env.SWITCHYARD_CLIENT).href)",
            "  : new URL('./switchyard-client.js', import.meta.url).href;",
            "const { Switchyard, ClientProblem } = await import(clientURL);",
            "const client = new Switchyard({ server: process.env.SERVER || 'http://localhost:8080' });",
            "const app = \(quote(app.name));",
            "",
            "// Each case: its name and its steps as [label, endpoint, body, expected visible path, redirected].",
            "const cases = [",
        ]
        for suiteCase in cases {
            lines.append("  [\(quote(suiteCase.name)), [")
            for step in suiteCase.steps {
                let path = String(decoding: JSONValue.array(step.path.map { .string($0) }).serialized(), as: UTF8.self)
                lines.append(
                    "    [\(quote(step.label)), \(quote(step.endpoint)), "
                        + "\(String(decoding: step.body.serialized(), as: UTF8.self)), \(path), \(step.redirected)],")
            }
            lines.append("  ]],")
        }
        lines += [
            "];",
            "",
            "for (const [name, steps] of cases) {",
            "  test(name, async () => {",
            "    const { session } = await client.createSession({ app });",
            "    try {",
            "      for (const [label, endpoint, body, path, redirected] of steps) {",
            "        let answer;",
            "        try {",
            "          answer = await client.request('POST', `${client.sessionPath(session)}/${endpoint}`, body);",
            "        } catch (error) {",
            "          if (!(error instanceof ClientProblem && redirected && error.kind === 'redirected')) throw error;",
            "          answer = error.state;",
            "        }",
            "        const state = answer?.visible ? answer : await client.getSession(session);",
            "        assert.deepEqual(state.visible.path, path, label);",
            "      }",
            "    } finally {",
            "      await client.request('DELETE', client.sessionPath(session)).catch(() => {});",
            "    }",
            "  });",
            "}",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
