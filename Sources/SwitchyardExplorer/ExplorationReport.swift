import Switchyard

/// What an exploration says about an app: every route reached with a shortest way there, the traps (states a person
/// cannot leave), the routes never entered, the events never accepted and the deep links that fail everywhere.
/// Traps and routes never entered are errors.
public struct ExplorationReport: Sendable {
    /// Where something is declared: the coordinator type and route, and for an app declared as data the JSON
    /// Pointer into its definition.
    public struct Place: Sendable, Hashable {
        public let coordinator: String
        public let route: String
        public let pointer: String?
    }

    /// A route reached: the shortest way there (action labels), and a deep link that shows it, if one does.
    public struct Reached: Sendable {
        public let place: Place
        public let way: [String]
        public let deepLink: String?
    }

    /// A state a person cannot leave: from it, no control, alert, gesture or tab leads back to the start, to a tab
    /// bar or to a finish.
    public struct Trap: Sendable {
        public let place: Place
        public let visiblePath: [String]
        public let way: [String]
    }

    /// A route no explored state entered, and why.
    public struct Unentered: Sendable {
        public let place: Place
        public let reason: String
    }

    public let graph: ExploredGraph
    public let reached: [Reached]
    public let traps: [Trap]
    public let neverEntered: [Unentered]
    /// Declared events no state accepted (none sent them, or every send was refused).
    public let eventsNeverAccepted: [String]
    /// Deep-link examples refused from every state, with the codes.
    public let deepLinksFailing: [(url: String, codes: [String])]

    /// Whether it found an error (a trap, or a route never entered).
    public var hasErrors: Bool { !traps.isEmpty || !neverEntered.isEmpty }

    /// The report of `graph`.
    public init(_ graph: ExploredGraph) {
        self.graph = graph
        let place = { (name: String) in Self.place(name, data: graph.isDefinedAsData) }
        // The way a person takes (controls, alerts, gestures, tabs, deep links), else the exploration's shortest.
        let personal = Self.personalWays(graph)
        let labels = { (state: Int) in
            (personal[state] ?? graph.way(to: state)).map { graph.edges[$0].action.label }
        }
        // Routes, in the order they were first reached (breadth first: the shortest way first), where a person
        // gets to them first when a person can.
        var firstState: [String: Int] = [:]
        var order: [String] = []
        let byPerson = personal.keys.sorted { (personal[$0]?.count ?? 0, $0) < (personal[$1]?.count ?? 0, $1) }
        for index in byPerson + graph.states.indices.filter({ personal[$0] == nil }) {
            for route in graph.states[index].entered where firstState[route] == nil {
                firstState[route] = index
                order.append(route)
            }
        }
        var links: [String: String] = [:]
        for edge in graph.edges where edge.from == 0 {
            guard case .deepLink(let url) = edge.action.request, let target = edge.target,
                graph.states[target].top != graph.states[0].top
            else { continue }
            let top = graph.states[target].top
            if links[top] == nil { links[top] = url }
        }
        reached = order.map { route in
            Reached(place: place(route), way: labels(firstState[route] ?? 0), deepLink: links[route])
        }
        traps = Self.traps(graph, reachable: personal).map { state in
            Trap(
                place: place(graph.states[state].top), visiblePath: graph.states[state].visiblePath, way: labels(state))
        }
        neverEntered = graph.routes.filter { firstState[$0.name] == nil }.map { route in
            Unentered(place: place(route.name), reason: Self.whyNeverEntered(route.name, graph))
        }
        var accepted: Set<String> = []
        var linkCodes: [String: [String]] = [:]
        for edge in graph.edges {
            switch (edge.action.request, edge.outcome) {
            case (.event(let name, _, _), .moved), (.event(let name, _, _), .unchanged): accepted.insert(name)
            case (.deepLink(let url), .refused(let code)):
                if !linkCodes[url, default: []].contains(code) { linkCodes[url, default: []].append(code) }
            case (.deepLink(let url), _): linkCodes[url] = ["opened"]
            default: break
            }
        }
        eventsNeverAccepted = graph.events.filter { !accepted.contains($0) }
        deepLinksFailing = graph.deepLinkExamples.compactMap { url in
            let codes = linkCodes[url] ?? []
            return codes.contains("opened") || codes.isEmpty ? nil : (url, codes)
        }
    }

    /// For each state a person can get into, a shortest way there by what a person does (controls, alerts,
    /// gestures, tabs, deep links).
    private static func personalWays(_ graph: ExploredGraph) -> [Int: [Int]] {
        var out: [Int: [Int]] = [:]
        for (index, edge) in graph.edges.enumerated()
        where edge.action.origin.isOnScreen || edge.action.origin == .deepLink {
            if edge.target != nil { out[edge.from, default: []].append(index) }
        }
        var ways: [Int: [Int]] = [0: []]
        var queue = [0]
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for edge in out[state] ?? [] {
                guard let target = graph.edges[edge].target, ways[target] == nil else { continue }
                ways[target] = (ways[state] ?? []) + [edge]
                queue.append(target)
            }
        }
        return ways
    }

    static func place(_ name: String, data: Bool) -> Place {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let (coordinator, route) = (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        return Place(
            coordinator: coordinator, route: route,
            pointer: data
                ? "/coordinators/\(JSONPointer.escaped(coordinator))/routes/\(JSONPointer.escaped(route))" : nil)
    }

    /// The expanded states from which no on-screen action leads, step by step, to the start, to a state with a tab
    /// bar, or through a finish; one per top-most route, the nearest first. Only states a person can get into (from
    /// the start by what is on screen, or by a deep link) are judged, and not those past a limit.
    private static func traps(_ graph: ExploredGraph, reachable: [Int: [Int]]) -> [Int] {
        // A state with an action whose state was not kept (a limit) may lead anywhere: it is not judged.
        var expanded = Set<Int>()
        var escapes: Set<Int> = [0]
        var into: [Int: [Int]] = [:]
        for edge in graph.edges {
            expanded.insert(edge.from)
            if edge.outcome == .cut { escapes.insert(edge.from) }
            guard edge.action.origin.isOnScreen, let target = edge.target else { continue }
            into[target, default: []].append(edge.from)
            if edge.action.origin == .tab || edge.action.finishes { escapes.insert(edge.from) }
        }
        var free = escapes
        var pending = Array(escapes)
        while let state = pending.popLast() {
            for source in into[state] ?? [] where free.insert(source).inserted { pending.append(source) }
        }
        // Only states a person can get into count (`reachable`: from the start by what is on screen, or a deep link).
        var places: Set<String> = []
        return graph.states.indices.filter { state in
            reachable[state] != nil && expanded.contains(state) && !free.contains(state)
                && places.insert(graph.states[state].top).inserted
        }
    }

    private static func whyNeverEntered(_ name: String, _ graph: ExploredGraph) -> String {
        let route = String(name.split(separator: ".", maxSplits: 1).last ?? "")
        var codes: [String] = []
        var redirected = false
        for edge in graph.edges where edge.action.names(route: route) {
            switch edge.outcome {
            case .refused(let code) where !codes.contains(code): codes.append(code)
            case .moved(_, redirected: true): redirected = true
            default: break
            }
        }
        if redirected { return "its guard redirected every attempt to enter it" }
        if !codes.isEmpty { return "every attempt to enter it was refused (\(codes.joined(separator: ", ")))" }
        return "nothing opens it: no screen action names it and its coordinator is never on screen"
    }
}

extension ExploredAction {
    /// Whether its steps finish or dismiss a coordinator (a way out of a flow).
    var finishes: Bool {
        guard case .transition(_, let steps) = request else { return false }
        return steps.contains { $0.action == .finish || $0.action == .dismissCoordinator }
    }

    /// Whether it is a transition one of whose steps names `route`.
    func names(route: String) -> Bool {
        guard case .transition(_, let steps) = request else { return false }
        return steps.contains { $0.route == route }
    }
}
