import Switchyard
import SwitchyardJSON
import Testing

@testable import SwitchyardSessions

/// Traffic coverage's rules on journeys made by hand: what a request's signature keeps, which changes match an
/// edge, gaps, changes no client asked for, transitions the exploration did not find.
@Suite("Traffic coverage count")
struct TrafficCoverageCountTests {
    static func step(_ version: Int, _ path: String, _ action: String? = nil) -> Journey.Step {
        Journey.Step(
            version: version, time: Double(version), path: path.split(separator: "/").map(String.init), action: action)
    }

    static func signature(_ endpoint: String, _ body: String) throws -> String? {
        ActionSignature.of(endpoint: endpoint, body: try JSONValue(parsing: Array(body.utf8)))
    }

    @Test func aSignatureKeepsActionsAndRouteNamesOnly() throws {
        #expect(try Self.signature("transitions", #"{"action":"selectTab","route":"todos"}"#) == "focus todos")
        #expect(
            try Self.signature(
                "transitions",
                #"{"coordinator":"c7","steps":[{"action":"child"},{"action":"push","route":"todo","input":"secret"}]}"#)
                == "child, push todo")
        #expect(try Self.signature("events", #"{"name":"login","fields":{"username":"ada"}}"#) == "event login")
        #expect(try Self.signature("deeplinks", #"{"url":"todoapp://todos/42?x=secret"}"#) == "open todoapp://todos")
        #expect(try Self.signature("transitions", #"{"action":"respondToAlert","choice":1}"#) == "respondToAlert 1")
        #expect(ActionSignature.of(source: .guard, request: Array(#"{"pendingRoute":"entered"}"#.utf8)) == nil)
        #expect(ActionSignature.of(source: .gesture, request: Array(#"{"action":"back"}"#.utf8)) == "back")
        #expect(ActionSignature.of(source: .api, request: Array(#"{"omitted":"too large"}"#.utf8)) == nil)
    }

    @Test func changesMatchEdgesByPathActionAndPath() {
        let graph = CoverageGraph(
            edges: [
                .init(from: ["a"], action: "push b", to: ["a", "b"]),
                .init(from: ["a", "b"], action: "back", to: ["a"]),
                .init(from: ["a"], action: "event x", to: ["c"]), .init(from: ["a"], action: "push b", to: ["a", "b"]),
            ], explored: 5)
        #expect(graph.edges.count == 3, "one edge per key")
        var coverage = TrafficCoverage(graph: graph)
        // a → b → a → b: push b twice, back once, by one session.
        coverage.count(
            Journey(
                app: nil,
                steps: [
                    Self.step(0, "a"), Self.step(1, "a/b", "push b"), Self.step(2, "a", "back"),
                    Self.step(3, "a/b", "push b"),
                ]))
        // A guard's redirect (no action) moves the path; a gap (versions 2 to 4 trimmed) matches nothing; a change
        // the exploration did not find.
        coverage.count(
            Journey(
                app: nil,
                steps: [
                    Self.step(0, "a"), Self.step(1, "c"), Self.step(2, "a", "pop"), Self.step(5, "a/b", "push b"),
                ]))
        let report = coverage.report()
        #expect(report.sessions == 2 && report.changes == 5)
        #expect(report.transitions.map(\.taken) == [2, 1, 0])
        #expect(report.transitions.map(\.sessions) == [1, 1, 0])
        #expect(report.covered == 2 && report.transitions.count == 3 && report.explored == 5)
        #expect(report.unexplored == [.init(edge: .init(from: ["c"], action: "pop", to: ["a"]), taken: 1, sessions: 1)])
        #expect(report.screens.map(\.sessions) == [2, 2, 1])
        #expect(report.notes.contains { $0.hasPrefix("1 changes were no client's request") })
        #expect(report.lines[0] == "coverage by 2 sessions (5 changes): 2 of 3 transitions taken (66.7 %)")
    }
}

/// The app member of a restore document and the name of a flow event, found without parsing them (analytics'
/// cache of app versions, and every stored event it reads).
@Suite("Top-level member")
struct TopLevelMemberTests {
    static func member(_ text: String) -> String? {
        TopLevelMember.app(in: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func onlyTheTopLevelAppObjectIsFound() {
        #expect(
            Self.member(#"{"format":"f","app":{"name":"todo","version":2},"tree":{}}"#)
                == #"{"name":"todo","version":2}"#)
        #expect(
            Self.member(#"{"tree":{"app":{"name":"no"}},"s":"\"app\":{}","app" : {"name":"a}","version":1}}"#)
                == #"{"name":"a}","version":1}"#)
        #expect(Self.member(#"{"tree":{"app":{"name":"no"}}}"#) == nil)
        #expect(Self.member(#"{"app":"todo"}"#) == nil)
        #expect(Self.member("not json") == nil)
        #expect(Self.member(#"{"x":"app","app":{"v":1}}"#) == #"{"v":1}"#)
    }

    /// The same name as a parser finds, for names found without one and for those left to it (escapes).
    @Test func anEventsNameIsTheTopLevelNameMember() {
        let requests = [
            #"{"name":"login","fields":{"username":"a"}}"#, #"{"fields":{"name":"no"},"name":"logout"}"#,
            #"{"x":"name","name" : "done"}"#, #"{"name":"caf\u00e9 \"x\""}"#, #"{"name":"ünïcode"}"#,
            #"{"fields":{"name":"only inside"}}"#, #"{"name":3}"#, #"[{"name":"no"}]"#, "not json",
        ]
        for request in requests {
            let bytes = Array(request.utf8)
            let parsed: String? =
                if case .string(let name)? = (try? JSONValue(parsing: bytes))?["name"] { name } else { nil }
            #expect(Journey.eventName(bytes) == parsed, "\(request)")
        }
        #expect(Journey.eventName(Array(#"{"name":"caf\u00e9"}"#.utf8)) == "café")
        #expect(TopLevelMember.string("name", in: Array(#"{"name":"a\"b"}"#.utf8)) == nil, "escapes go to a parser")
    }

    /// A history source read from a store's bytes is the one its text names; text it does not know reads as `api`.
    @Test func aStoredSourceReadsAlikeFromTextAndBytes() {
        for text in HistorySource.allCases.map(\.rawValue) + ["", "unknown", "apis", "even"] {
            let fromBytes = Array(text.utf8).withUnsafeBytes { HistorySource(stored: $0) }
            #expect(fromBytes == HistorySource(stored: text), "\(text)")
        }
    }
}
