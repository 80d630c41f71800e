/// Declarations that cannot work, found before anything is served.
extension NavigationApp {
    /// Checks the app's declarations, every coordinator type reachable from the root (found as the catalog finds
    /// them) and the deep links, for what cannot work:
    /// - errors: a `TabNavigation` that leaves out one of its `@TabRoute`s (never shown, unless listed in
    ///   `addedLater:`) or lists a property that is not one; an initial route that is not a `@Root` route; a pushed
    ///   `@Route` on a coordinator without a stack, or pushing a coordinator that is not a navigation coordinator
    ///   (its guard and result handler never run); an event declared twice or without a name; a deep-link pattern
    ///   that cannot work as written or never runs because an earlier one matches every link it does; a screen action
    ///   naming a route its coordinator does not have, or (typed) a route of a coordinator that never holds it;
    /// - warnings: an icon the web page cannot draw (it shows the name instead), a deep-link example that its
    ///   pattern does not match or that an earlier pattern takes, a screen action sending an event no coordinator
    ///   declares (when the app declares events) or opening a link no pattern matches.
    ///
    /// Screen actions are checked on the screens the exploration can render (routes made with sample inputs).
    ///
    /// Returns the findings, errors first; none for a sound app.
    public func check() -> [AppDiagnostic] {
        var findings = deepLinkDiagnostics
        if name.isEmpty {
            findings.append(
                AppDiagnostic(
                    .error, "missingName", problem: "the app has no name",
                    fix: "name it: NavigationApp(name: \"shop\", …)"))
        }
        let explored = exploredCoordinators()
        for explored in explored {
            findings +=
                Self.checkKind(explored.coordinator, explored.table) + Self.checkRoutes(of: explored)
                + Self.checkEvents(of: explored)
        }
        findings += checkScreenActions(explored)
        findings += checkVersion(explored)
        return findings.filter { $0.severity == .error } + findings.filter { $0.severity == .warning }
    }

    /// Checks several apps served together: each app, and that no two share a name (one would be unreachable).
    public static func check(_ apps: [NavigationApp]) -> [(app: String, diagnostic: AppDiagnostic)] {
        var findings = checkNames(apps)
        for app in apps {
            findings += app.check().map { (app: app.name, diagnostic: $0) }
        }
        return findings.filter { $0.diagnostic.severity == .error }
            + findings.filter { $0.diagnostic.severity == .warning }
    }

    /// Only the names and versions of apps served together: an error for each name and version two or more of them
    /// share (versions of one app are served together; one version twice is not).
    public static func checkNames(_ apps: [NavigationApp]) -> [(app: String, diagnostic: AppDiagnostic)] {
        let identities = apps.map(\.identity)
        return Set(identities).sorted().filter { identity in identities.count(where: { $0 == identity }) > 1 }.map {
            identity in
            (
                identity.name,
                AppDiagnostic(
                    .error, "duplicateApp",
                    problem: "\(identities.count(where: { $0 == identity })) apps are named '\(identity.name)' "
                        + "at version \(identity.version)",
                    fix: "give each app its own name, or each version of one app its own version number")
            )
        }
    }

    private static func checkKind(_ coordinator: any Coordinatable, _ table: RouteTable) -> [AppDiagnostic] {
        let type = table.typeName
        let binding = coordinator.binding
        switch binding.kind {
        case .tab:
            guard let (initial, later) = binding.listedTabs(of: coordinator) else { return [] }
            var findings: [AppDiagnostic] = []
            if initial.contains(where: { $0 == nil }) || later.contains(where: { $0 == nil }) {
                findings.append(
                    AppDiagnostic(
                        .error, "notATabRoute", coordinator: type,
                        problem: "its TabNavigation lists a property that is not a @TabRoute",
                        fix:
                            "list only @TabRoute properties: \(table.names(.tab).map { "\\.\($0)" }.joined(separator: ", "))"
                    ))
            }
            if initial.isEmpty {
                findings.append(
                    AppDiagnostic(
                        .error, "noTabs", coordinator: type, problem: "its TabNavigation shows no tab at first",
                        fix: "name the first tabs: TabNavigation(\\\(type).tab, …)"))
            }
            let listed = Set((initial + later).compactMap { $0 })
            for name in table.names(.tab) where !listed.contains(name) {
                findings.append(
                    AppDiagnostic(
                        .error, "tabNotListed", coordinator: type, route: name,
                        problem: "the tab route is not in its TabNavigation, so it is never shown",
                        fix: "add \\\(type).\(name) to TabNavigation(…), or to its addedLater: if addTab adds it"))
            }
            return findings
        case .root, .navigation:
            guard binding.initialRoot(of: coordinator) == nil else { return [] }
            return [
                AppDiagnostic(
                    .error, "initialNotRoot", coordinator: type,
                    problem: "its initial route is not one of its @Root routes",
                    fix: "start at a @Root route: \(table.names(.root).joined(separator: ", "))")
            ]
        }
    }

    private static func checkEvents(of explored: ExploredCoordinator) -> [AppDiagnostic] {
        let type = explored.table.typeName
        let names = explored.coordinator.declaredEvents.map(\.name)
        var findings: [AppDiagnostic] = []
        if names.contains("") {
            findings.append(
                AppDiagnostic(
                    .error, "unnamedEvent", coordinator: type, problem: "it declares an event without a name",
                    fix: "name every FlowEventDeclaration"))
        }
        for name in Set(names).sorted() where !name.isEmpty && names.count(where: { $0 == name }) > 1 {
            findings.append(
                AppDiagnostic(
                    .error, "duplicateEvent", coordinator: type,
                    problem: "it declares the event '\(name)' more than once",
                    fix: "declare each event once in `static var events`"))
        }
        return findings
    }
}
