import Foundation
import Switchyard
import SwitchyardDefinitions
import Testing
import TodoDemo

/// The proof that the definition format can say everything the demo says in Swift: `Examples/Definitions/
/// todo-data.yaml`, the demo written as data, walked in lockstep with the Swift demo (the same moves, picked from the
/// Swift demo's screen) gives the same outcome and the same state document, byte for byte, after every move.
@Suite("The demo as data answers like the demo")
struct DataTwinTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/Definitions/todo-data.yaml")

    static func twin() throws -> NavigationApp {
        try NavigationApp(definition: String(contentsOf: file, encoding: .utf8), format: .yaml)
    }

    /// 12 × 20 = 240 seeded walks of 60 moves each.
    @Test(arguments: 0..<12)
    func randomWalksGiveTheSameDocuments(batch: UInt64) throws {
        let twin = try Self.twin()
        for seed in batch * 20..<(batch + 1) * 20 {
            var walker = DemoWalker(seed: 10_000 + seed)
            let swift = try TodoDemo.app.makeEngine()
            let data = try twin.makeEngine()
            for step in 0..<60 {
                guard let move = walker.nextMove(swift) else { break }
                let expected = Self.outcome { try DemoWalker.perform(move, on: swift) }
                let actual = Self.outcome { try DemoWalker.perform(move, on: data) }
                let place = "seed \(10_000 + seed), step \(step), \(move.label)"
                #expect(actual == expected, "\(place)")
                let swiftDocument = swift.stateDocument(session: "walk")
                let dataDocument = Self.asTheDemo(data.stateDocument(session: "walk"))
                if dataDocument != swiftDocument {
                    Issue.record("\(place): \(Self.firstDifference(swiftDocument, dataDocument))")
                }
                guard actual == expected, dataDocument == swiftDocument else { return }
            }
        }
    }

    /// A document of the twin with the app it names written as the demo's (the one member that must differ).
    static func asTheDemo(_ document: [UInt8]) -> [UInt8] {
        Array(
            String(decoding: document, as: UTF8.self).replacingOccurrences(
                of: #""app":{"name":"todo-data","#, with: #""app":{"name":"todo","#
            ).utf8)
    }

    /// The lockstep walks reach the flows the random walks of the demo reach: a twin that agreed only on the welcome
    /// screen would prove nothing.
    @Test func theLockstepWalksCoverEveryFlow() throws {
        var seen = Set<String>()
        for seed in 0..<40 as Range<UInt64> {
            var walker = DemoWalker(seed: 10_000 + seed)
            let swift = try TodoDemo.app.makeEngine()
            for _ in 0..<60 {
                guard let move = walker.nextMove(swift) else { break }
                if case .success(let label) = Self.outcome({ try DemoWalker.perform(move, on: swift) }) {
                    seen.insert(label)
                }
                if move.label.hasPrefix("Create ") { seen.insert("create tapped") }
            }
        }
        for flow in [
            "event login", "event create", "event toggleFavourite", "event setAdminMode", "event openTodo",
            "alert answered", "deep link opened", "deep link pending", "tab selected", "gesture back",
        ] {
            #expect(seen.contains(flow), "no lockstep walk reached \(flow)")
        }
    }

    /// Where two documents first differ, with some bytes of each from a little before.
    static func firstDifference(_ expected: [UInt8], _ actual: [UInt8]) -> String {
        let index =
            zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(expected.count, actual.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, index - 80)..<min(bytes.count, index + 80)], as: UTF8.self)
        }
        return "byte \(index): the demo has …\(around(expected))…, the twin …\(around(actual))…"
    }

    /// A name longer than an id is cut at 40 characters, never leaving a trailing `-` (which `-2` would double):
    /// in the demo's store and in the twin's `newId` alike.
    @Test func aLongNameMakesAnIDWithoutATrailingDash() throws {
        let name = String(repeating: "a", count: 39) + " b"
        let base = String(repeating: "a", count: 39)
        let store = TodoStore()
        #expect(store.add(name: name).id == base)
        #expect(store.add(name: name).id == base + "-2")
        for engine in [try TodoDemo.app.makeEngine(), try Self.twin().makeEngine()] {
            func item() -> String { engine.stateValue()["visible"]?["item"]?.stringValue ?? "" }
            try engine.send(FlowEvent(name: "completeOnboarding"), from: item())
            try engine.send(FlowEvent(name: "login", fields: ["username": "ada"]), from: item())
            try engine.perform(
                [Step(.focus(route: "todos")), Step(.route(route: "create"))], from: "AuthenticatedCoordinator")
            try engine.send(FlowEvent(name: "create", fields: ["name": name]), from: item())
            try engine.perform([Step(.route(route: "create"))], from: "TodosCoordinator")
            try engine.send(FlowEvent(name: "create", fields: ["name": name]), from: item())
            guard case .array(let content)? = engine.stateValue()["visible"]?["screen"]?["content"],
                case .array(let rows)? = content.first?["rows"]
            else {
                Issue.record("no list of todos")
                continue
            }
            #expect(rows.suffix(2).compactMap { $0["id"]?.stringValue } == [base, base + "-2"])
        }
    }

    /// What a move gave: what it did, or the error a client would see (code and message).
    enum Outcome: Equatable {
        case success(String)
        case failure(code: String, message: String)
    }

    static func outcome(_ body: () throws -> String) -> Outcome {
        do {
            return .success(try body())
        } catch let error as NavigationError {
            return .failure(code: error.code, message: error.message)
        } catch {
            return .failure(code: "\(type(of: error))", message: "\(error)")
        }
    }
}
