import Switchyard

/// How a suite reaches a server: one request, its status and JSON body (nil when it has none). The command line
/// speaks HTTP; tests can answer in process.
public protocol SuiteTransport {
    func send(_ method: String, _ path: String, body: JSONValue?) throws -> (status: Int, body: JSONValue?)
}

/// Runs a ``TestSuite`` against a server: a new session per case (removed after), each step sent, the visible path
/// read back and compared; a case stops at its first failing step.
public struct SuiteRunner {
    /// A step whose session went elsewhere than the suite expected (or whose request failed).
    public struct Failure: Sendable {
        public let caseName: String
        public let step: Int
        public let label: String
        public let expected: [String]
        public let actual: [String]?
        /// The answer's problem (`409 cannotPopRoot: …`), when it was one the suite did not expect.
        public let problem: String?
    }

    /// What a run found.
    public struct Result: Sendable {
        public let cases: Int
        public let failures: [Failure]
        /// The suite's transitions taken as expected, of ``TestSuite/transitions``.
        public let covered: Int
        public let transitions: Int

        /// `coverage: 100.0 % of 143 transitions`.
        public var coverageLine: String {
            let tenths = transitions == 0 ? 1000 : covered * 1000 / transitions
            return "coverage: \(tenths / 10).\(tenths % 10) % of \(transitions) transitions"
        }
    }

    let transport: any SuiteTransport

    /// A runner over `transport`.
    public init(transport: any SuiteTransport) {
        self.transport = transport
    }

    /// Runs `suite`.
    public func run(_ suite: TestSuite) -> Result {
        var failures: [Failure] = []
        var covered = Set<Int>()
        for suiteCase in suite.cases {
            switch run(suiteCase, of: suite) {
            case .success(let taken): covered.formUnion(taken)
            case .failure(let failure):
                covered.formUnion(failure.taken)
                failures.append(failure.failure)
            }
        }
        return Result(
            cases: suite.cases.count, failures: failures, covered: covered.count, transitions: suite.transitions)
    }

    private struct CaseFailure: Error {
        let failure: Failure
        let taken: Set<Int>
    }

    private func run(_ suiteCase: TestSuite.Case, of suite: TestSuite) -> Swift.Result<Set<Int>, CaseFailure> {
        var taken = Set<Int>()
        func fail(_ step: Int, _ expected: [String], _ actual: [String]?, _ problem: String?) -> CaseFailure {
            let label = suiteCase.steps.indices.contains(step) ? suiteCase.steps[step].label : "create a session"
            return CaseFailure(
                failure: Failure(
                    caseName: suiteCase.name, step: step, label: label, expected: expected, actual: actual,
                    problem: problem),
                taken: taken)
        }
        let created: (status: Int, body: JSONValue?)
        do {
            created = try transport.send("POST", "/api/sessions", body: ["app": .string(suite.app.name)])
        } catch {
            return .failure(fail(-1, [], nil, "\(error)"))
        }
        guard created.status == 201, let id = created.body?["session"]?.stringValue else {
            return .failure(fail(-1, [], nil, Self.problem(created)))
        }
        defer { _ = try? transport.send("DELETE", "/api/sessions/\(id)", body: nil) }
        for (index, step) in suiteCase.steps.enumerated() {
            do {
                let answer = try transport.send("POST", "/api/sessions/\(id)/\(step.endpoint)", body: step.body)
                // The answer holds the state (a problem of a committed redirect holds it as `state`).
                var document = answer.body?["visible"] != nil ? answer.body : answer.body?["state"]
                if document?["visible"] == nil {
                    document = try transport.send("GET", "/api/sessions/\(id)", body: nil).body
                }
                let path = document?["visible"]?["path"]?.arrayValue?.compactMap(\.stringValue)
                let answered = step.redirected || (200..<300).contains(answer.status)
                guard path == step.path, answered else {
                    return .failure(fail(index, step.path, path, answered ? nil : Self.problem(answer)))
                }
                if let transition = step.transition { taken.insert(transition) }
            } catch {
                return .failure(fail(index, step.path, nil, "\(error)"))
            }
        }
        return .success(taken)
    }

    private static func problem(_ answer: (status: Int, body: JSONValue?)) -> String {
        let code = answer.body?["code"]?.stringValue ?? "no problem code"
        let detail = answer.body?["detail"]?.stringValue.map { ": \($0)" } ?? ""
        return "\(answer.status) \(code)\(detail)"
    }
}
