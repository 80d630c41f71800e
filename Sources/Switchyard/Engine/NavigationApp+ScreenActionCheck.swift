/// The actions of the screens ``NavigationApp/check()`` can render: routes that no coordinator has, typed routes of a
/// coordinator that never holds the screen, events nothing declares and links no pattern matches.
///
/// Screens are rendered as the exploration makes them (with sample inputs, on fresh coordinators), so the check sees
/// the controls a screen shows for that data: a control shown only for other data is not seen. The typed forms
/// (``ScreenAction/push(_:_:)`` and the others) need no check for the route's name: the compiler makes it.
extension NavigationApp {
    func checkScreenActions(_ explored: [ExploredCoordinator]) -> [AppDiagnostic] {
        let byType = Dictionary(explored.map { ($0.table.typeName, $0) }, uniquingKeysWith: { first, _ in first })
        let holders = Self.holders(explored)
        let events = Set(explored.flatMap { $0.coordinator.declaredEvents.map(\.name) })
        var findings: [AppDiagnostic] = []
        for coordinator in explored where !(coordinator.coordinator is any DynamicCoordinator) {
            for route in coordinator.routes {
                guard case .screen(let screen)? = route.product else { continue }
                let place = ScreenPlace(coordinator: coordinator, route: route.name, title: screen.render().title)
                for action in screen.render().content.flatMap(\.actions) {
                    findings += check(action, at: place, byType: byType, holders: holders, events: events)
                }
            }
        }
        var seen: Set<AppDiagnostic> = []
        return findings.filter { seen.insert($0).inserted }
    }

    /// Where an action was found: the screen a route of a coordinator type shows.
    private struct ScreenPlace {
        let coordinator: ExploredCoordinator
        let route: String
        let title: String

        var typeName: String { coordinator.table.typeName }
    }

    private func check(
        _ action: ScreenAction, at place: ScreenPlace, byType: [String: ExploredCoordinator],
        holders: [String: Set<String>], events: Set<String>
    ) -> [AppDiagnostic] {
        switch action {
        case .transition(let steps):
            return Self.checkRoutes(steps, at: place, byType: byType)
        case .open(let route):
            let types = holders[place.typeName, default: []].union([place.typeName])
            guard !types.contains(route.ownerName) else { return [] }
            return [
                AppDiagnostic(
                    .error, "routeOfAnotherCoordinator", coordinator: place.typeName, route: place.route,
                    problem:
                        "its screen '\(place.title)' opens a route of \(route.ownerName), which never holds this screen "
                        + "(the screen is not shown: every change that would show it is refused)",
                    fix: "name a route of \(place.typeName) or of a coordinator that holds it: "
                        + types.sorted().joined(separator: ", "))
            ]
        case .event(let name, _, _):
            guard !events.isEmpty, !events.contains(name) else { return [] }
            let guess = Spelling.nearest(to: name, in: events.sorted()).map { "did you mean '\($0)'? " } ?? ""
            return [
                AppDiagnostic(
                    .warning, "undeclaredEvent", coordinator: place.typeName, route: place.route,
                    problem: "its screen '\(place.title)' sends the event '\(name)', which no coordinator declares",
                    fix: "\(guess)declare it in a coordinator's `static var events`, or fix the name")
            ]
        case .deepLink(let url):
            guard !matchesDeepLink(url) else { return [] }
            return [
                AppDiagnostic(
                    .warning, "deepLinkNotMatched", coordinator: place.typeName, route: place.route,
                    problem: "its screen '\(place.title)' opens the link '\(url)', which no deep-link pattern matches "
                        + "(a tap answers 404)",
                    fix: "add a deep link whose pattern matches it, or fix the link")
            ]
        }
    }

    /// The route names of a chain, followed as far as the check can: from the screen's coordinator, into each child
    /// coordinator a step opens; a step that moves elsewhere (pop, dismiss, back…) ends what can be followed.
    private static func checkRoutes(
        _ steps: [Step], at place: ScreenPlace, byType: [String: ExploredCoordinator]
    ) -> [AppDiagnostic] {
        var current: ExploredCoordinator? = place.coordinator
        for step in steps {
            guard let coordinator = current, step.action != .selectTab,
                let name = step.route ?? step.routes?.first?.route
            else { return [] }
            guard let route = coordinator.routes.first(where: { $0.name == name }) else {
                let names = coordinator.table.order
                let nearest = Spelling.nearest(to: name, in: names)
                let typed = ".\(step.action.rawValue)(\\\(coordinator.table.typeName).\(nearest ?? "route"))"
                return [
                    AppDiagnostic(
                        .error, "unknownRoute", coordinator: place.typeName, route: place.route,
                        problem: "its screen '\(place.title)' has an action (\(step.action.rawValue)) naming the route "
                            + "'\(name)', which \(coordinator.table.typeName) does not have (a tap answers 400)",
                        fix: (nearest.map { "did you mean '\($0)'? " } ?? "")
                            + "name one of \(names.joined(separator: ", ")), or use the typed form \(typed), "
                            + "which the compiler checks")
                ]
            }
            switch (step.action, route.product) {
            case (.route, .coordinator(let child)?), (.push, .coordinator(let child)?),
                (.present, .coordinator(let child)?), (.show, .coordinator(let child)?):
                current = byType[RouteTable.of(child).typeName]
            case (.route, _), (.push, _), (.present, _), (.show, _), (.hasRoot, _), (.isRoot, _), (.popTo, _):
                break
            default:
                current = nil
            }
        }
        return []
    }

    /// For each coordinator type, the types that can hold it (its parents, theirs, and so on).
    private static func holders(_ explored: [ExploredCoordinator]) -> [String: Set<String>] {
        var parents: [String: Set<String>] = [:]
        for coordinator in explored {
            for route in coordinator.routes {
                if case .coordinator(let child)? = route.product {
                    parents[RouteTable.of(child).typeName, default: []].insert(coordinator.table.typeName)
                }
            }
        }
        var holders: [String: Set<String>] = [:]
        for type in parents.keys {
            var found: Set<String> = []
            var queue = Array(parents[type] ?? [])
            while let next = queue.popLast() {
                guard found.insert(next).inserted else { continue }
                queue += parents[next] ?? []
            }
            holders[type] = found
        }
        return holders
    }
}

extension ScreenElement {
    /// The actions of the element's controls (a list's rows' actions, a button's, a toggle's).
    var actions: [ScreenAction] {
        switch self {
        case .toggle(_, _, _, let action), .button(_, _, _, let action): [action]
        case .list(let rows): rows.compactMap(\.action)
        case .text, .image, .textField: []
        }
    }
}
