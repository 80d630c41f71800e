import Switchyard

/// The checks of a definition that reads well: names that point nowhere, kinds that do not fit, what is never
/// reached, guard redirects that loop, data that conditions read but nothing sets, icons the page cannot draw;
/// and everything ``Switchyard/NavigationApp/check()`` finds in the app it makes, mapped back to JSON Pointers.
struct DefinitionCheck {
    let definition: AppDefinition
    private let coordinators: [String: CoordinatorDefinition]
    private let screens: [String: ScreenDefinition]
    private var found: [DefinitionDiagnostic] = []

    init(_ definition: AppDefinition) {
        self.definition = definition
        coordinators = Dictionary(
            definition.coordinators.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        screens = Dictionary(definition.screens.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func findings() -> [DefinitionDiagnostic] {
        var check = self
        check.names()
        check.routes()
        check.coordinatorReferences()
        // Before anything renders a screen (the engine's check does): a screen past its budget is not rendered.
        check.renderingBudgets()
        // The checks that follow routes from coordinator to coordinator need every reference to resolve (a broken
        // one would be reported again as what it leaves unreached); the others run whatever was found, so that an
        // author sees every independent mistake in one round.
        let referencesResolve = !check.found.contains { $0.severity == .error }
        if referencesResolve {
            check.startLoops()
            check.reachability()
        }
        // The engine's own check needs an app made of the definition: every reference resolving, no coordinator
        // starting itself, no screen past its budget. Mistakes in actions, steps, guards and data reads leave the
        // app buildable, so their findings and the engine's come in the same round.
        let buildable = referencesResolve && !check.found.contains { $0.severity == .error }
        check.actions()
        check.deepLinkSteps()
        check.redirectLoops()
        check.dataReads()
        check.icons()
        if buildable { check.engineFindings() }
        return check.found
    }

    private mutating func error(_ code: String, _ pointer: String, _ message: String, _ suggestion: String? = nil) {
        found.append(DefinitionDiagnostic(.error, code, at: pointer, message, suggestion: suggestion))
    }

    private mutating func warning(_ code: String, _ pointer: String, _ message: String, _ suggestion: String? = nil) {
        found.append(DefinitionDiagnostic(.warning, code, at: pointer, message, suggestion: suggestion))
    }

    /// Suggestions made so far: only the first ``maxSuggestions`` findings get one, so that a definition with
    /// thousands of wrong names is still checked quickly.
    private var suggested = 0
    private static let maxSuggestions = 50

    private mutating func didYouMean(_ name: String, _ choices: some Sequence<String>) -> String? {
        guard suggested < Self.maxSuggestions else { return nil }
        suggested += 1
        let choices = Array(choices).sorted()
        return Spelling.nearest(to: name, in: choices).map { "did you mean '\($0)'?" }
            ?? (choices.isEmpty ? nil : "one of: \(choices.prefix(12).joined(separator: ", "))")
    }

    private static func routePointer(_ coordinator: String, _ route: String) -> String {
        Pointer.append(Pointer.append(Pointer.append("/coordinators", coordinator), "routes"), route)
    }

    /// The root is a coordinator; no screen shares a coordinator's name.
    private mutating func names() {
        if coordinators[definition.root] == nil {
            error(
                "unknownCoordinator", "/root", "'\(definition.root)' is not a coordinator of this definition",
                didYouMean(definition.root, coordinators.keys))
        }
        for screen in definition.screens where coordinators[screen.name] != nil {
            error(
                "duplicateName", Pointer.append("/screens", screen.name),
                "'\(screen.name)' names both a screen and a coordinator", "rename one of them")
        }
    }

    /// Every route targets something that exists, of a kind its coordinator can hold; initial routes and tabs name
    /// routes of the right kind.
    private mutating func routes() {
        let targets = Set(coordinators.keys).union(screens.keys)
        for coordinator in definition.coordinators {
            let base = Pointer.append("/coordinators", coordinator.name)
            for route in coordinator.routes {
                let at = Self.routePointer(coordinator.name, route.name)
                if !targets.contains(route.target) {
                    error(
                        "unknownTarget", Pointer.append(at, "target"),
                        "'\(route.target)' is neither a screen nor a coordinator of this definition",
                        didYouMean(route.target, targets))
                }
                switch (route.kind, coordinator.kind) {
                case (.tab, .root), (.tab, .stack):
                    error(
                        "wrongRouteKind", Pointer.append(at, "kind"),
                        "\(Article.withIndefinite(coordinator.kind.rawValue)) coordinator has no tab routes",
                        "use kind 'root' or 'route'")
                case (.root, .tabs):
                    error(
                        "wrongRouteKind", Pointer.append(at, "kind"), "a tabs coordinator has no root routes",
                        "use kind 'tab'")
                default: break
                }
                if let type = route.input, route.kind == .tab {
                    error(
                        "wrongRouteKind", Pointer.append(at, "input"),
                        "a tab route takes no input (it is made when the tabs start), declared \(type.rawValue)")
                }
            }
            let routeNames = coordinator.routes.map(\.name)
            if let initial = coordinator.initial {
                if let route = coordinator.routes.first(where: { $0.name == initial }) {
                    if route.kind != .root {
                        error(
                            "wrongRouteKind", Pointer.append(base, "initial"),
                            "the initial route '\(initial)' is not a root route", "give it \"kind\": \"root\"")
                    }
                    initialInput(coordinator, route, at: Pointer.append(base, "initialInput"))
                } else {
                    error(
                        "unknownRoute", Pointer.append(base, "initial"),
                        "'\(initial)' is not a route of \(coordinator.name)",
                        didYouMean(initial, routeNames))
                }
            }
            for (list, member) in [(coordinator.tabs, "tabs"), (coordinator.addedLater, "addedLater")] {
                for (index, tab) in list.enumerated() where !coordinator.routes.contains(where: { $0.name == tab }) {
                    error(
                        "unknownRoute", Pointer.append(Pointer.append(base, member), index),
                        "'\(tab)' is not a route of \(coordinator.name)", didYouMean(tab, routeNames))
                }
            }
        }
    }

    /// The input a coordinator starts its initial route with fits that route's input type.
    private mutating func initialInput(
        _ coordinator: CoordinatorDefinition, _ route: RouteDefinition, at pointer: String
    ) {
        let given = coordinator.initialInput.flatMap { $0 == .null ? nil : $0 }
        switch (route.input, given) {
        case (nil, let value?):
            error(
                "invalidValue", pointer, "the initial route '\(route.name)' takes no input, given \(value.jsonString)",
                "remove 'initialInput', or declare the route's 'input'")
        case (let type?, nil):
            error(
                "missingMember", Pointer.append("/coordinators", coordinator.name),
                "the initial route '\(route.name)' takes \(type.rawValue) input: give it as 'initialInput'")
        case (let type?, let value?) where !type.accepts(value):
            error(
                "invalidValue", pointer,
                "the initial route '\(route.name)' takes \(type.rawValue) input, given \(value.jsonString)")
        default: break
        }
    }

    /// A coordinator whose initial route (or a first tab) makes a coordinator that starts back at it can never start.
    private mutating func startLoops() {
        func starts(_ name: String) -> [(target: String, pointer: String)] {
            guard let coordinator = coordinators[name] else { return [] }
            let base = Pointer.append("/coordinators", name)
            let first: [(String, String)] =
                coordinator.kind == .tabs
                ? coordinator.tabs.enumerated().map { ($1, Pointer.append(Pointer.append(base, "tabs"), $0)) }
                : coordinator.initial.map { [($0, Pointer.append(base, "initial"))] } ?? []
            return first.compactMap { route, pointer in
                guard let target = coordinator.routes.first(where: { $0.name == route })?.target,
                    coordinators[target] != nil
                else { return nil }
                return (target, pointer)
            }
        }
        var reported: Set<String> = []
        for start in definition.coordinators.map(\.name) {
            var path = [start]
            var pointers: [String] = []
            var current = start
            while let next = starts(current).first(where: { !reported.contains($0.target) }) {
                pointers.append(next.pointer)
                if let loopStart = path.firstIndex(of: next.target) {
                    let loop = Array(path[loopStart...])
                    if reported.insert(loop.sorted().joined(separator: ",")).inserted {
                        error(
                            "startLoop", pointers[loopStart],
                            "starting \(loop[0]) starts \((loop.dropFirst() + [next.target]).joined(separator: ", then "))",
                            "let one of them start at a screen")
                        reported.formUnion(loop)
                    }
                    break
                }
                path.append(next.target)
                current = next.target
                if path.count > coordinators.count { break }
            }
        }
    }

    /// What the root never reaches through routes is never shown.
    private mutating func reachability() {
        var reached: Set<String> = [definition.root]
        var queue = [definition.root]
        while let name = queue.popLast() {
            for route in coordinators[name]?.routes ?? [] where reached.insert(route.target).inserted {
                queue.append(route.target)
            }
        }
        for coordinator in definition.coordinators where !reached.contains(coordinator.name) {
            warning(
                "unreachable", Pointer.append("/coordinators", coordinator.name),
                "no route from the root '\(definition.root)' leads to the coordinator '\(coordinator.name)'",
                "target it from a route, or remove it")
        }
        for screen in definition.screens where !reached.contains(screen.name) {
            warning(
                "unreachable", Pointer.append("/screens", screen.name),
                "no route from the root '\(definition.root)' leads to the screen '\(screen.name)'",
                "target it from a route, or remove it")
        }
    }

    /// A screen's transition starts at a route its coordinator has; an event it sends is declared somewhere.
    private mutating func actions() {
        let events = Set(definition.coordinators.flatMap { $0.events.map(\.declaration.name) })
        let links: DeepLinkRouter<DefinedStackCoordinator> = DefinedDeepLinks.router(definition.deepLinks)
        for screen in definition.screens {
            let owners = definition.coordinators.filter { $0.routes.contains { $0.target == screen.name } }
            let routes = Set(owners.flatMap { $0.routes.map(\.name) })
            for (index, element) in screen.elements.enumerated() {
                let at = Pointer.append(Pointer.append(Pointer.append("/screens", screen.name), "content"), index)
                for (action, pointer) in Self.actions(of: element, at: at) {
                    switch action {
                    case .transition(let steps):
                        // A tab tap goes to the tabs above the screen, whichever coordinator owns it.
                        if let first = steps.first, first.action != "selectTab", let route = first.route,
                            !owners.isEmpty, !routes.contains(route)
                        {
                            error(
                                "unknownRoute",
                                Pointer.append(Pointer.append(Pointer.append(pointer, "steps"), 0), "route"),
                                "the screen's coordinator (\(owners.map(\.name).joined(separator: ", "))) has no route '\(route)'",
                                didYouMean(route, routes))
                        }
                    case .event(let name, _, _) where !events.contains(name):
                        error(
                            "unknownEvent", Pointer.append(pointer, "name"),
                            "no coordinator handles the event '\(name)'",
                            didYouMean(name, events))
                    case .deepLink(let url) where url.paths.isEmpty && links.match(url.text) == nil:
                        warning(
                            "deepLinkNotMatched", Pointer.append(pointer, "url"),
                            "the link '\(url.text)' matches none of this definition's deep links (a tap answers 404)",
                            "add a deep link whose pattern matches it, or fix the link")
                    case .event, .deepLink: break
                    }
                }
            }
        }
    }

    /// Each route a deep link's steps name (as written, not made by a template) is a route of some coordinator:
    /// a misspelled one would make every open of the link answer 400 `unknownRoute`.
    private mutating func deepLinkSteps() {
        let routes = Set(definition.coordinators.flatMap { $0.routes.map(\.name) })
        for (index, link) in definition.deepLinks.enumerated() {
            for (position, step) in link.steps.enumerated() {
                guard let route = step.route, !route.contains("{{"), !routes.contains(route) else { continue }
                let at = Pointer.append(
                    Pointer.append(Pointer.append(Pointer.append("/deepLinks", index), "steps"), position), "route")
                error(
                    "unknownRoute", at,
                    "no coordinator has a route '\(route)' (the deep link '\(link.pattern)' opens it)",
                    didYouMean(route, routes))
            }
        }
    }

    private static func actions(of element: ElementDefinition, at pointer: String) -> [(ActionDefinition, String)] {
        switch element {
        case .toggle(_, _, _, let action), .button(_, _, _, let action):
            return [(action, Pointer.append(pointer, "action"))]
        case .list(let rows):
            return rows.enumerated().compactMap { index, row in
                row.action.map {
                    ($0, Pointer.append(Pointer.append(Pointer.append(pointer, "rows"), index), "action"))
                }
            }
        case .boundList(_, let row):
            return row.action.map { [($0, Pointer.append(Pointer.append(pointer, "row"), "action"))] } ?? []
        case .text, .image, .textField: return []
        }
    }

    /// A guard whose redirect enters a guarded route whose redirect comes back would loop (the engine refuses it
    /// at run time; here it is found before).
    private mutating func redirectLoops() {
        var redirects: [String: (pointer: String, routes: [String])] = [:]
        for coordinator in definition.coordinators {
            for route in coordinator.routes {
                if case .redirect(let steps)? = route.guardRule?.otherwise {
                    redirects[route.name] = (
                        Pointer.append(Self.routePointer(coordinator.name, route.name), "guard"),
                        steps.compactMap(\.route)
                    )
                }
            }
        }
        var reported: Set<String> = []
        for start in redirects.keys.sorted() {
            var path = [start]
            var current = start
            while let next = redirects[current]?.routes.first(where: { redirects[$0] != nil }) {
                if let loopStart = path.firstIndex(of: next) {
                    let loop = Array(path[loopStart...])
                    if reported.insert(loop.sorted().joined(separator: ",")).inserted, let first = redirects[loop[0]] {
                        error(
                            "redirectLoop", first.pointer,
                            "guards redirect in a circle: \((loop + [next]).joined(separator: " → "))",
                            "let one of them allow, or redirect elsewhere")
                    }
                    break
                }
                path.append(next)
                current = next
            }
        }
    }

    /// A condition that reads `data.x` when neither the initial data nor any operation sets `x` is always the same.
    private mutating func dataReads() {
        var set = Set(definition.data.objectValue?.keys.map { $0 } ?? [])
        set.formUnion(reactions.flatMap { $0.reaction.cases.flatMap { $0.data.map(\.path.root) } })
        var reads: [(String, String)] = []
        for coordinator in definition.coordinators {
            for route in coordinator.routes {
                if let rule = route.guardRule {
                    reads += rule.allowIf.paths.map {
                        ($0, Pointer.append(Self.routePointer(coordinator.name, route.name), "guard"))
                    }
                }
            }
            let at = Pointer.append("/coordinators", coordinator.name)
            reads += coordinator.bindings.flatMap { binding in binding.paths.map { ($0, Pointer.append(at, "let")) } }
        }
        for (reaction, at) in reactions {
            let conditions = reaction.cases.flatMap { ($0.when.map { [$0] } ?? []) + $0.requirements.map(\.condition) }
            reads += (conditions.flatMap(\.paths) + reaction.bindings.flatMap(\.paths)).map { ($0, at) }
        }
        for screen in definition.screens {
            let at = Pointer.append("/screens", screen.name)
            reads += screen.bindings.flatMap(\.paths).map { ($0, Pointer.append(at, "let")) }
            for (index, entry) in screen.content.enumerated() {
                reads += (entry.when?.paths ?? []).map {
                    ($0, Pointer.append(Pointer.append(Pointer.append(at, "content"), index), "when"))
                }
            }
        }
        for (index, link) in definition.deepLinks.enumerated() {
            let at = Pointer.append("/deepLinks", index)
            reads += ((link.waitUntil?.paths ?? []) + link.requirements.flatMap(\.condition.paths)).map { ($0, at) }
        }
        var warned: Set<String> = []
        for (path, pointer) in reads where path.hasPrefix("data.") {
            let key = String(path.dropFirst(5).prefix { $0 != "." && $0 != "[" })
            guard !set.contains(key), warned.insert(key + pointer).inserted else { continue }
            warning(
                "dataNeverSet", pointer, "the condition reads '\(path)', which neither 'data' nor any operation sets",
                didYouMean(key, set).map { "\($0) (it always reads as absent)" } ?? "set it in 'data' or an event")
        }
    }

    /// Every event's and result's reaction, with its pointer.
    private var reactions: [(reaction: Reaction, pointer: String)] {
        definition.coordinators.flatMap { coordinator in
            let base = Pointer.append("/coordinators", coordinator.name)
            return coordinator.events.map {
                ($0.reaction, Pointer.append(Pointer.append(base, "events"), $0.declaration.name))
            }
                + coordinator.routes.compactMap { route in
                    route.onResult.map {
                        ($0, Pointer.append(Self.routePointer(coordinator.name, route.name), "onResult"))
                    }
                }
        }
    }

    /// A handler's `from` and an `open` condition name coordinators of the definition.
    private mutating func coordinatorReferences() {
        var named: [(String, String)] = []
        func filters(_ bindings: [Binding], at pointer: String) -> [(String, String)] {
            bindings.flatMap { binding in (binding.filter?.coordinators ?? []).map { ($0, pointer) } }
        }
        for coordinator in definition.coordinators {
            named += filters(
                coordinator.bindings, at: Pointer.append(Pointer.append("/coordinators", coordinator.name), "let"))
        }
        for screen in definition.screens {
            named += filters(screen.bindings, at: Pointer.append(Pointer.append("/screens", screen.name), "let"))
        }
        for (reaction, at) in reactions {
            named += filters(reaction.bindings, at: Pointer.append(at, "let"))
            for handler in reaction.cases {
                if let from = handler.from { named.append((from, Pointer.append(handler.pointer, "from"))) }
                let conditions = (handler.when.map { [$0] } ?? []) + handler.requirements.map(\.condition)
                named += conditions.flatMap(\.coordinators).map { ($0, handler.pointer) }
            }
        }
        for screen in definition.screens {
            for (index, entry) in screen.content.enumerated() {
                let at = Pointer.append(Pointer.append(Pointer.append("/screens", screen.name), "content"), index)
                named += (entry.when?.coordinators ?? []).map { ($0, Pointer.append(at, "when")) }
            }
        }
        for (index, link) in definition.deepLinks.enumerated() {
            let conditions = (link.waitUntil.map { [$0] } ?? []) + link.requirements.map(\.condition)
            named += conditions.flatMap(\.coordinators).map { ($0, Pointer.append("/deepLinks", index)) }
        }
        for coordinator in definition.coordinators {
            for route in coordinator.routes {
                named += (route.guardRule?.allowIf.coordinators ?? []).map {
                    ($0, Pointer.append(Self.routePointer(coordinator.name, route.name), "guard"))
                }
            }
        }
        for (name, pointer) in named where coordinators[name] == nil {
            error(
                "unknownCoordinator", pointer, "'\(name)' is not a coordinator of this definition",
                didYouMean(name, coordinators.keys))
        }
    }

    /// Icons written out (not made by a template) must be ones the page draws.
    private mutating func icons() {
        for coordinator in definition.coordinators {
            for route in coordinator.routes {
                if let icon = route.item?.icon, icon.paths.isEmpty, !PageIcons.names.contains(icon.text) {
                    warning(
                        "unknownIcon",
                        Pointer.append(Pointer.append(Self.routePointer(coordinator.name, route.name), "item"), "icon"),
                        "the page cannot draw the icon '\(icon.text)' (it shows the name instead)",
                        didYouMean(icon.text, PageIcons.names))
                }
            }
        }
        for screen in definition.screens {
            for (index, element) in screen.elements.enumerated() {
                let at = Pointer.append(Pointer.append(Pointer.append("/screens", screen.name), "content"), index)
                var named: [(Template, String)] = []
                switch element {
                case .image(let name, _): named.append((name, Pointer.append(at, "systemName")))
                case .list(let rows):
                    for (row, item) in rows.enumerated() {
                        if let icon = item.icon {
                            named.append(
                                (icon, Pointer.append(Pointer.append(Pointer.append(at, "rows"), row), "icon")))
                        }
                    }
                case .boundList(_, let row):
                    if let icon = row.icon { named.append((icon, Pointer.append(Pointer.append(at, "row"), "icon"))) }
                default: break
                }
                for (icon, pointer) in named where icon.paths.isEmpty && !PageIcons.names.contains(icon.text) {
                    warning(
                        "unknownIcon", pointer,
                        "the page cannot draw the icon '\(icon.text)' (it shows the name instead)",
                        didYouMean(icon.text, PageIcons.names))
                }
            }
        }
    }

    /// Screens whose templates can ask for more work than a rendering's budget: sections nested over lists ask for
    /// the product of the lists' lengths. Estimated at the lengths ``RenderingEstimate`` assumes; a screen past
    /// the budget at run time is refused anyway (``RenderBudget``), but one past it here would be at ordinary sizes.
    private mutating func renderingBudgets() {
        for screen in definition.screens {
            let steps = RenderingEstimate.steps(screen)
            guard steps > Double(RenderBudget.steps) else { continue }
            let shown = steps < 1e15 ? String(Int(steps)) : String(format: "%.1e", steps)
            error(
                "renderingBudget", Pointer.append("/screens", screen.name),
                "rendering the screen '\(screen.name)' can take \(shown) template steps, more than its budget of "
                    + "\(RenderBudget.steps) (sections counted as lists of \(Int(RenderingEstimate.sectionLength)), "
                    + "bound lists as \(Int(RenderingEstimate.listLength)) rows)",
                "nest fewer sections: each one over a list multiplies the work of what it holds")
        }
    }

    /// What the engine's own check finds in the app (pushing without a stack, tabs never shown, deep-link patterns
    /// that cannot work or never run), with the definition's pointers. Its icon findings are the ones above.
    private mutating func engineFindings() {
        for finding in NavigationApp(definition).check() where finding.code != "unknownIcon" {
            var pointer = ""
            if let coordinator = finding.coordinator {
                pointer = Pointer.append("/coordinators", coordinator)
                if let route = finding.route { pointer = Self.routePointer(coordinator, route) }
            }
            // A pattern written twice: the shadowed one is the later.
            let named: (DeepLinkDefinition) -> Bool = { finding.problem.hasPrefix("deep link '\($0.pattern)'") }
            if finding.problem.hasPrefix("deep link '"),
                let index = finding.code == "shadowedDeepLink"
                    ? definition.deepLinks.lastIndex(where: named) : definition.deepLinks.firstIndex(where: named)
            {
                pointer = Pointer.append(Pointer.append("/deepLinks", index), "pattern")
            }
            let words = DefinitionWording.words(
                for: finding, coordinator: finding.coordinator.flatMap { coordinators[$0] })
            found.append(
                DefinitionDiagnostic(
                    finding.severity == .error ? .error : .warning, finding.code, at: pointer, words.problem,
                    suggestion: words.fix))
        }
    }
}
