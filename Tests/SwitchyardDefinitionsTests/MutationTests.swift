import Switchyard
import SwitchyardDefinitions
import Testing

/// A bad definition never crashes or hangs anything: 2,000 mutations of a sound one (8 seeds × 250) (members removed,
/// renamed, retyped, names pointed elsewhere, huge and deep values) each give diagnostics or an app that runs.
@Suite("Mutated definitions")
struct MutationTests {
    /// A small deterministic generator (SplitMix64), so that a failure can be replayed from its seed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Every path (as keys and indices) of `value`'s members and elements.
    private static func paths(_ value: JSONValue, _ prefix: [String] = []) -> [[String]] {
        switch value {
        case .object(let members):
            return members.keys.sorted().flatMap { [prefix + [$0]] + paths(members[$0]!, prefix + [$0]) }
        case .array(let elements):
            return elements.indices.flatMap { [prefix + ["\($0)"]] + paths(elements[$0], prefix + ["\($0)"]) }
        default: return []
        }
    }

    /// `value` with what is at `path` changed by `change` (nil: removed).
    private static func changing(
        _ value: JSONValue, _ path: ArraySlice<String>, _ change: (JSONValue) -> JSONValue?
    )
        -> JSONValue
    {
        guard let key = path.first else { return change(value) ?? .null }
        switch value {
        case .object(var members):
            guard let member = members[key] else { return value }
            if path.count == 1 {
                members[key] = change(member)
            } else {
                members[key] = changing(member, path.dropFirst(), change)
            }
            return .object(members)
        case .array(var elements):
            guard let index = Int(key), elements.indices.contains(index) else { return value }
            if path.count == 1, let changed = change(elements[index]) {
                elements[index] = changed
            } else if path.count == 1 {
                elements.remove(at: index)
            } else {
                elements[index] = changing(elements[index], path.dropFirst(), change)
            }
            return .array(elements)
        default: return value
        }
    }

    private static func deep(_ depth: Int) -> JSONValue {
        depth == 0 ? "x" : .array([deep(depth - 1)])
    }

    private static func mutate(_ value: JSONValue, _ random: inout Generator) -> JSONValue {
        let all = paths(value)
        guard let path = all.randomElement(using: &random) else { return value }
        let names = [
            "App", "Home", "Inbox", "login", "home", "inbox", "message", "nope", "", "data.user", "{{", "{{#x}}",
        ]
        let replacements: [JSONValue] = [
            .null, true, 0, -1, 1e300, "", "{{unclosed", "{{#a}}{{/b}}", .array([]), .object([:]),
            .string(String(repeating: "a", count: 100_000)), deep(200),
            .object(["kind": "tabs", "tabs": .array([]), "routes": .object([:])]), .array([.object([:])]),
        ]
        switch random.next() % 4 {
        case 0: return changing(value, path[...]) { _ in nil }  // removed
        case 1:
            let replacement = replacements.randomElement(using: &random) ?? .null
            return changing(value, path[...]) { _ in replacement }  // retyped
        case 2:
            let name = names.randomElement(using: &random) ?? "x"
            return changing(value, path[...]) { old in old.stringValue == nil ? old : .string(name) }  // renamed
        default:
            // A member renamed: its value under another key.
            guard let last = path.last, Int(last) == nil else { return value }
            let parent = path.dropLast()
            let name = names.randomElement(using: &random) ?? "x"
            return changing(value, parent[...]) { old in
                guard case .object(var members) = old, let moved = members.removeValue(forKey: last) else { return old }
                members[name] = moved
                return .object(members)
            }
        }
    }

    @Test(arguments: 0..<8)
    func mutatedDefinitionsGiveDiagnosticsOrARunningApp(seed: Int) throws {
        let sound = try JSONValue(parsing: Array(mailDefinition.utf8))
        var random = Generator(state: UInt64(seed))
        var served = 0
        for _ in 0..<250 {
            var value = sound
            for _ in 0...(random.next() % 3) { value = Self.mutate(value, &random) }
            let text = String(decoding: value.serialized(), as: UTF8.self)
            let loaded = AppDefinition.load(text)
            let errors = loaded.diagnostics.filter { $0.severity == .error }
            #expect((loaded.definition == nil) == !errors.isEmpty)
            for diagnostic in loaded.diagnostics {
                #expect(!diagnostic.code.isEmpty && diagnostic.pointer.allSatisfy { $0 != "\n" })
            }
            guard let definition = loaded.definition else { continue }
            // A definition that passes runs: a session starts, its state renders, a restore round-trips.
            served += 1
            let app = NavigationApp(definition)
            let engine = try app.makeEngine()
            _ = engine.stateDocument()
            _ = try app.restoreEngine(from: JSONValue(parsing: engine.restoreDocument()))
            if let item = engine.visibleItem {
                _ = try? engine.send(FlowEvent(name: "login", fields: ["user": "ada"]), from: item.description)
            }
            _ = try? engine.open("mail://message/m1")
            _ = engine.stateDocument()
        }
        #expect(served > 0)
    }
}
