import Switchyard

/// Explores an app's graph through the real engine, as a server's sessions run it: breadth first from the initial
/// state, every action each state offers tried on a copy of it, states told apart by their shape and by how their
/// guards decide (``NavigationEngine`` keeps no ids, inputs or data in that key: a list of ten todos and one of
/// eleven are one state, a todo pushed with id 1 or 2 is one state).
///
/// The actions of a state: each control of the visible screen (with its text fields filled), each button of an
/// alert shown, the gestures (back, swipe-dismiss), each tab, each route of the coordinators on screen entered by
/// its declared step (with the inputs screens were seen to give it, or a sample), and each deep-link example of the
/// app. Nothing is stored and nothing leaves the process.
public struct AppExplorer {
    let app: NavigationApp
    let limits: ExplorationLimits

    /// An explorer of `app` within `limits`.
    public init(app: NavigationApp, limits: ExplorationLimits = ExplorationLimits()) {
        self.app = app
        self.limits = limits
    }

    /// Explores the app.
    ///
    /// - Throws: What making the app's first engine throws (the app cannot start).
    public func explore() throws -> ExploredGraph {
        let clock = ContinuousClock()
        let started = clock.now
        let first = Self.checked(try app.makeEngine())
        var run = Run(
            app: app, limits: limits,
            graph: ExploredGraph(
                app: app.identity, isDefinedAsData: first.isDefinedAsData, routes: Self.routes(app.catalog()),
                events: Self.events(app.catalog()), deepLinkExamples: app.deepLinkExamples))
        _ = try run.add(first, depth: 0, via: nil)
        var next = 0
        while next < run.graph.states.count {
            if clock.now - started > .seconds(limits.seconds) {
                run.reached("\(Int(limits.seconds)) s")
                break
            }
            let state = next
            next += 1
            guard run.graph.states[state].depth < limits.depth else {
                run.reached("\(limits.depth) actions deep")
                continue
            }
            try run.expand(state)
        }
        let elapsed = (clock.now - started).components
        run.graph.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return run.graph
    }

    /// `engine`, checking each commit as a session does (a screen past its budget or misplaced is refused).
    static func checked(_ engine: NavigationEngine) -> NavigationEngine {
        engine.commitPolicy = CommitPolicy(makesRestoreDocuments: false)
        return engine
    }

    /// What tells states apart: the engine's shape and its guards' decisions.
    static func key(of engine: NavigationEngine) -> String {
        engine.shapeKey() + "#" + engine.guardDecisions()
    }

    /// The outcome of `action` run on `engine` (changed in place), and whether a guard redirected it.
    static func run(_ action: ExploredAction, on engine: NavigationEngine) -> Attempt {
        let before = engine.version
        do {
            try action.run(on: engine)
            return engine.version == before ? .unchanged : .committed(redirected: false)
        } catch let error as NavigationError where error.redirect != nil {
            return .committed(redirected: true)
        } catch let error as NavigationError {
            return .refused(error.code)
        } catch let refusal as CommitRefusal {
            switch refusal {
            case .documentTooLarge: return .refused("documentTooLarge")
            case .renderingBudgetExceeded: return .refused("renderingBudgetExceeded")
            case .misplacedAction: return .refused("misplacedAction")
            }
        } catch {
            return .failed("\(error)")
        }
    }

    /// What running an action did.
    enum Attempt {
        case committed(redirected: Bool)
        case unchanged
        case refused(String)
        case failed(String)
    }

    private static func routes(_ catalog: JSONValue) -> [(name: String, guarded: Bool)] {
        var routes: [(name: String, guarded: Bool)] = []
        for coordinator in catalog["coordinators"]?.arrayValue ?? [] {
            let type = coordinator["type"]?.stringValue ?? ""
            for route in coordinator["routes"]?.arrayValue ?? [] {
                let name = route["name"]?.stringValue ?? ""
                routes.append((name: type + "." + name, guarded: route["guarded"] == .bool(true)))
            }
        }
        return routes
    }

    private static func events(_ catalog: JSONValue) -> [String] {
        var seen: Set<String> = []
        return (catalog["coordinators"]?.arrayValue ?? []).flatMap { $0["events"]?.arrayValue ?? [] }
            .compactMap { $0["name"]?.stringValue }.filter { seen.insert($0).inserted }
    }
}

/// One exploration under way: the graph so far, the states by key, the inputs screens were seen to give routes.
private struct Run {
    let app: NavigationApp
    let limits: ExplorationLimits
    var graph: ExploredGraph
    var index: [String: Int] = [:]
    var inputs: [String: [JSONValue]] = [:]
    var assumed: Set<String> = []

    init(app: NavigationApp, limits: ExplorationLimits, graph: ExploredGraph) {
        self.app = app
        self.limits = limits
        self.graph = graph
    }

    mutating func reached(_ bound: String) {
        if !graph.limitsReached.contains(bound) { graph.limitsReached.append(bound) }
    }

    /// The state `engine` is in: the one of its key, or a new one (nil past the states' limit).
    mutating func add(_ engine: NavigationEngine, depth: Int, via edge: Int?) throws -> Int? {
        let key = AppExplorer.key(of: engine)
        if let known = index[key] { return known }
        guard graph.states.count < limits.states else {
            reached("\(limits.states) states")
            return nil
        }
        graph.states.append(
            ExploredGraph.State(
                key: key, document: try JSONValue(parsing: engine.restoreDocument()), visiblePath: engine.visiblePath,
                depth: depth, via: edge, entered: engine.enteredRoutes().map { $0.ownerType + "." + $0.route },
                top: engine.visibleTop.map { $0.ownerType + "." + $0.route } ?? ""))
        index[key] = graph.states.count - 1
        return graph.states.count - 1
    }

    func engine(at state: Int) throws -> NavigationEngine {
        AppExplorer.checked(try app.restoreEngine(from: graph.states[state].document))
    }

    /// Tries every action of `state`.
    mutating func expand(_ state: Int) throws {
        let engine = try engine(at: state)
        var actions = ScreenActions(
            document: try JSONValue(parsing: engine.stateDocument()), texts: app.guardedTexts
        ).actions
        for action in actions {
            if case .transition(_, let steps) = action.request {
                for step in steps {
                    if let route = step.route, let input = step.input { remember(input, for: route) }
                }
            }
        }
        actions += otherActions(engine)
        var tried: Set<ExploredAction.Request> = []
        for action in actions where tried.insert(action.request).inserted {
            let copy = try self.engine(at: state)
            let outcome: ExploredGraph.Outcome
            switch AppExplorer.run(action, on: copy) {
            case .committed(let redirected): outcome = try moved(copy, from: state, redirected: redirected)
            case .unchanged: outcome = .unchanged
            case .refused(let code): outcome = .refused(code)
            case .failed(let message):
                let at = graph.states[state].visiblePath.joined(separator: "/")
                graph.failures.append("\(action.label) at \(at): \(message)")
                outcome = .refused("appFailed")
            }
            graph.edges.append(ExploredGraph.Edge(from: state, action: action, outcome: outcome))
        }
        graph.assumed = assumed.sorted()
    }

    private mutating func moved(
        _ engine: NavigationEngine, from state: Int, redirected: Bool
    ) throws -> ExploredGraph.Outcome {
        guard let target = try add(engine, depth: graph.states[state].depth + 1, via: graph.edges.count) else {
            return .cut
        }
        return .moved(to: target, redirected: redirected)
    }

    private mutating func remember(_ input: JSONValue, for route: String) {
        if !inputs[route, default: []].contains(input) { inputs[route, default: []].append(input) }
    }

    /// The gestures, the tabs and routes of the coordinators on screen, and the deep-link examples.
    private mutating func otherActions(_ engine: NavigationEngine) -> [ExploredAction] {
        var actions = [
            ExploredAction(.gesture, "back", .transition(coordinator: nil, steps: [Step(.back)])),
            ExploredAction(.gesture, "swipe down", .transition(coordinator: nil, steps: [Step(.dismissModal)])),
        ]
        for node in engine.visibleCoordinators {
            for route in engine.openableRoutes(of: node) {
                let owner = route.ownerType
                if route.step.action == .focus {
                    actions.append(
                        ExploredAction(
                            .tab, "tab '\(route.route)'", .transition(coordinator: owner, steps: [route.step])))
                    continue
                }
                let verb = route.step.action.rawValue
                let name = "\(route.ownerType).\(route.route)"
                guard let type = route.inputType else {
                    actions.append(
                        ExploredAction(.route, "\(verb) \(name)", .transition(coordinator: owner, steps: [route.step])))
                    continue
                }
                for input in samples(for: route.route, type: type) {
                    actions.append(
                        ExploredAction(
                            .route, "\(verb) \(name) \(input.serializedText)",
                            .transition(coordinator: owner, steps: [Self.step(route.step, input: input)])))
                }
            }
        }
        for node in engine.visibleCoordinators {
            for event in engine.declaredEvents(of: node) where !event.name.isEmpty {
                let payload = Self.sample(event.payload)
                for text in event.fields.isEmpty ? ["Sample"] : ["Sample"] + app.guardedTexts {
                    var fields: [String: String] = [:]
                    for field in event.fields { fields[field] = text }
                    if payload != .null || !fields.isEmpty {
                        assumed.insert(
                            "event '\(event.name)' sent with payload \(payload.serializedText) and fields "
                                + "\(JSONValue.object(fields.mapValues { .string($0) }).serializedText)")
                    }
                    actions.append(
                        ExploredAction(
                            .event, "send \(event.name)" + (fields.isEmpty ? "" : " with '\(text)'"),
                            .event(name: event.name, payload: payload, fields: fields)))
                }
            }
        }
        for url in app.deepLinkExamples {
            actions.append(ExploredAction(.deepLink, "open \(url)", .deepLink(url)))
        }
        return actions
    }

    /// The inputs screens gave `route`, or one made up for its type (noted as assumed).
    private mutating func samples(for route: String, type: String) -> [JSONValue] {
        if let seen = inputs[route], !seen.isEmpty { return seen }
        let lowered = type.lowercased()
        let sample: JSONValue =
            lowered.contains("string")
            ? "sample"
            : lowered.contains("int")
                ? 1
                : lowered.contains("double") || lowered.contains("number") || lowered.contains("float")
                    ? 1.5
                    : lowered.contains("bool") ? true : [:]
        assumed.insert("input \(sample.serializedText) for route '\(route)' (\(type)): no screen gives it one")
        return [sample]
    }

    /// A value its JSON Schema takes: its first example, or made of its type (objects with their required
    /// members); null when it has no schema.
    static func sample(_ schema: JSONValue?) -> JSONValue {
        guard let schema else { return .null }
        if let example = schema["examples"]?.arrayValue?.first { return example }
        switch schema["type"]?.stringValue {
        case "string": return "sample"
        case "integer", "number": return 1
        case "boolean": return true
        case "array": return []
        case "object":
            var members: [String: JSONValue] = [:]
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                members[name] = sample(schema["properties"]?[name])
            }
            return .object(members)
        default: return .null
        }
    }

    private static func step(_ step: Step, input: JSONValue) -> Step {
        switch step.operation {
        case .root(let route, _): Step(.root(route: route, input: input))
        case .push(let route, _): Step(.push(route: route, input: input))
        case .present(let route, _, let presentation):
            Step(.present(route: route, input: input, presentation: presentation))
        default: step
        }
    }
}

extension JSONValue {
    /// The value as compact JSON text.
    var serializedText: String { String(decoding: serialized(), as: UTF8.self) }
}
