import Switchyard
import TodoDemo

/// Walks the demo at random the way a person would: taps what the visible screen offers (buttons, rows, toggles,
/// forms with typed text), answers alerts, switches tabs, swipes back and down, and opens deep links. Seeded, so
/// a failing walk can be replayed. Refused moves are part of the walk (they must leave the state as it was).
struct DemoWalker {
    var generator: SplitMix64
    /// What each move did, for failure messages.
    private(set) var log: [String] = []
    /// The flows the walk reached (e.g. `event create`, `deep link pending`).
    private(set) var coverage = Set<String>()

    init(seed: UInt64) {
        // Not a multiple of the generator's increment: seeds k and k+1 must not be one stream shifted by a step.
        generator = SplitMix64(state: (seed &+ 1) &* 0xD1B5_4A32_D192_ED03)
    }

    static let typedText = ["", "  ", "ada", "grace", "Buy bread", "Call mum", String(repeating: "x", count: 130)]
    static let deepLinks = [
        "jumper://io.idevs/home", "jumper://io.idevs/settings", "jumper://io.idevs/todo/buy-milk",
        "stinsenapp://todo/hello-world", "https://example.com/todo/write-docs", "stinsenapp://todo/buy-bread",
        "jumper://io.idevs/todo/no-such-todo", "jumper://io.idevs/nowhere",
    ]

    mutating func coin() -> Bool {
        Bool.random(using: &generator)
    }

    /// The move a person would make next on `engine` (nil: nothing to do).
    mutating func nextMove(_ engine: NavigationEngine) -> Move? {
        candidates(engine.stateValue()).randomElement(using: &generator)
    }

    /// Makes one move on `engine`.
    mutating func move(_ engine: NavigationEngine) {
        guard let move = nextMove(engine) else { return }
        let todosBefore = (engine.rootCoordinator as? AppCoordinator)?.store.todos
        let run = engine.collectingCommits { try Self.perform(move, on: engine) }
        log.append("\(move.label): \(run.ending)")
        if case .returned(let label) = run.ending { coverage.insert(label) }
        if run.commits.contains(where: { $0.cause == .pendingDeepLink }) { coverage.insert("pending link completed") }
        if (engine.rootCoordinator as? AppCoordinator)?.store.todos != todosBefore { coverage.insert("data changed") }
    }

    /// Makes `move` on `engine`; what it did, for coverage.
    static func perform(_ move: Move, on engine: NavigationEngine) throws -> String {
        switch move.kind {
        case .steps(let steps, let coordinator):
            try engine.perform(steps, from: coordinator)
            return steps.first?.operation.action == .respondToAlert ? "alert answered" : "transition"
        case .event(let event, let from):
            try engine.send(event, from: from)
            return "event \(event.name)"
        case .deepLink(let url):
            return try engine.open(url) == .opened ? "deep link opened" : "deep link pending"
        case .back:
            try engine.goBack()
            return "gesture back"
        case .dismiss:
            try engine.dismissTopModal()
            return "gesture dismiss"
        case .tab(let route):
            try engine.tapTab(route)
            return "tab selected"
        }
    }

    /// The moves to pick from now; answering a visible alert is likelier, as a person must.
    private mutating func candidates(_ state: JSONValue) -> [Move] {
        var moves: [Move] = []
        var alerts: [Move] = []
        var tabRoutes: [String] = []
        collect(state["tree"], alerts: &alerts, tabs: &tabRoutes)
        if !alerts.isEmpty, Int.random(in: 0..<10, using: &generator) < 7 { return alerts }
        if case .array(let elements)? = state["visible"]?["screen"]?["content"] {
            for element in elements { moves += actions(of: element) }
        }
        moves += alerts
        // Mostly what the screen offers, as a person taps; sometimes the tab bar, a gesture or a link.
        if !moves.isEmpty, Int.random(in: 0..<3, using: &generator) > 0 { return moves }
        moves += tabRoutes.map { Move(label: "tab \($0)", kind: .tab($0)) }
        moves += [Move(label: "back", kind: .back), Move(label: "dismiss", kind: .dismiss)]
        if let url = Self.deepLinks.randomElement(using: &generator) {
            moves.append(Move(label: "open \(url)", kind: .deepLink(url)))
        }
        return moves
    }

    private func collect(_ node: JSONValue?, alerts: inout [Move], tabs: inout [String]) {
        guard let node, let id = node["id"]?.stringValue else { return }
        if case .array(let actions)? = node["alert"]?["actions"] {
            for choice in actions.indices {
                let steps = [Step(.respondToAlert(choice: choice))]
                alerts.append(Move(label: "alert \(choice)", kind: .steps(steps, coordinator: id)))
            }
        }
        var entries: [JSONValue] = []
        if let root = node["root"] { entries.append(root) }
        if case .array(let stack)? = node["stack"] { entries += stack }
        if case .array(let tabEntries)? = node["tabs"] {
            entries += tabEntries
            tabs += tabEntries.compactMap { $0["route"]?.stringValue }
        }
        for entry in entries { collect(entry["coordinator"], alerts: &alerts, tabs: &tabs) }
    }

    private mutating func actions(of element: JSONValue) -> [Move] {
        if case .array(let rows)? = element["rows"] {
            return rows.flatMap { actions(of: $0) }
        }
        if element["disabled"] == .bool(true) { return [] }
        guard let action = element["action"] else { return [] }
        let title = element["title"]?.stringValue ?? element["id"]?.stringValue ?? "?"
        switch action["type"]?.stringValue {
        case "transition":
            guard let steps = try? action["steps"]?.decode([Step].self) else { return [] }
            return [Move(label: title, kind: .steps(steps, coordinator: action["coordinator"]?.stringValue))]
        case "event":
            guard let name = action["name"]?.stringValue, let from = action["from"]?.stringValue else { return [] }
            var fields: [String: String] = [:]
            if case .array(let names)? = action["fields"] {
                // A toggle sends its own field on or off; any other field gets typed text.
                let toggle = element["type"] == "toggle" ? element["id"]?.stringValue : nil
                for field in names.compactMap(\.stringValue) {
                    fields[field] =
                        field == toggle ? (coin() ? "true" : "false") : Self.typedText.randomElement(using: &generator)
                }
            }
            let event = FlowEvent(name: name, payload: action["payload"] ?? .null, fields: fields)
            return [Move(label: "\(title) (\(name) \(fields))", kind: .event(event, from: from))]
        default:
            return []
        }
    }
}

/// One thing the walker can do.
struct Move {
    enum Kind {
        case steps([Step], coordinator: String?)
        case event(FlowEvent, from: String)
        case deepLink(String)
        case back
        case dismiss
        case tab(String)
    }

    let label: String
    let kind: Kind
}

/// A small seeded generator (SplitMix64), so walks replay exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
