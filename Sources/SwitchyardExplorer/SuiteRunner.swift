import Dispatch
import Switchyard
import Synchronization

/// How a suite reaches a server: one request, its status and JSON body (nil when it has none). The command line
/// speaks HTTP; tests can answer in process. Cases run side by side, so requests may come from several threads.
public protocol SuiteTransport: Sendable {
    func send(_ method: String, _ path: String, body: JSONValue?) throws -> (status: Int, body: JSONValue?)
}

/// Runs a ``TestSuite`` against a server: a new session per case (removed after), each step sent, the visible path
/// read back and compared; a case stops at its first failing step.
public struct SuiteRunner: Sendable {
    /// A step whose session went elsewhere than the suite expected (or whose request failed).
    public struct Failure: Sendable, CustomStringConvertible {
        public let caseName: String
        public let step: Int
        public let label: String
        public let expected: [String]
        public let actual: [String]?
        /// The answer's problem (`409 cannotPopRoot: …`), when it was one the suite did not expect.
        public let problem: String?

        /// `FAIL case` and, on the next line, `step 3 (label): expected a/b, found a/c (problem)`.
        public var description: String {
            "FAIL \(caseName)\n  step \(step + 1) (\(label)): expected \(expected.joined(separator: "/")), found "
                + (actual.map { $0.joined(separator: "/") } ?? "unknown") + (problem.map { " (\($0))" } ?? "")
        }
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
    let concurrency: Int

    /// A runner over `transport`, running up to `concurrency` cases (sessions) at once.
    public init(transport: any SuiteTransport, concurrency: Int = 1) {
        self.transport = transport
        self.concurrency = max(1, concurrency)
    }

    /// Runs `suite`; failures come in the suite's order of cases.
    public func run(_ suite: TestSuite) -> Result {
        let outcomes = Mutex([Int: Swift.Result<Set<Int>, CaseFailure>]())
        let next = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: min(concurrency, suite.cases.count)) { _ in
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < suite.cases.count else { return }
                let outcome = run(suite.cases[index], of: suite)
                outcomes.withLock { $0[index] = outcome }
            }
        }
        var failures: [Failure] = []
        var covered = Set<Int>()
        for (_, outcome) in outcomes.withLock({ $0 }).sorted(by: { $0.key < $1.key }) {
            switch outcome {
            case .success(let taken): covered.formUnion(taken)
            case .failure(let failure):
                covered.formUnion(failure.taken)
                failures.append(failure.failure)
            }
        }
        return Result(
            cases: suite.cases.count, failures: failures, covered: covered.count, transitions: suite.transitions)
    }

    private struct CaseFailure: Error, Sendable {
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
