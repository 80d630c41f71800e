/// The route declarations ``NavigationApp/check()`` looks at: presentations that can never be made, and icons the
/// page cannot draw.
extension NavigationApp {
    static func checkRoutes(of explored: ExploredCoordinator) -> [AppDiagnostic] {
        let type = explored.table.typeName
        let ownerKind = explored.coordinator.binding.kind
        var findings = explored.table.sharedSites.map { shared in
            AppDiagnostic(
                .error, "routeSiteShared", coordinator: type, route: shared.route,
                problem:
                    "it is declared at the same file, line and column as '\(shared.sameAs)', so it makes what '\(shared.sameAs)' makes",
                fix: "leave fileID, line and column of each @Route, @Root and @TabRoute to their defaults")
        }
        for route in explored.routes {
            let transition = route.transition
            let unused = [
                transition.guardCheck == nil ? nil : "its guard",
                transition.resultHandler == nil ? nil : "its result handler",
            ].compactMap { $0 }
            let consequence = unused.isEmpty ? "" : " (so \(unused.joined(separator: " and ")) never runs)"
            if transition.kind == .route, transition.style.presentation == .push {
                if ownerKind != .navigation {
                    findings.append(
                        AppDiagnostic(
                            .error, "pushWithoutStack", coordinator: type, route: route.name,
                            problem:
                                "it is pushed, but \(Article.withIndefinite(ownerKind.rawValue)) coordinator has no stack\(consequence)",
                            fix:
                                "declare it @Route(.modal) or @Route(.fullScreen), or move it to a navigation coordinator"
                        ))
                } else if let kind = transition.outputKind, kind != .navigation {
                    findings.append(
                        AppDiagnostic(
                            .error, "cannotPush", coordinator: type, route: route.name,
                            problem:
                                "it pushes \(transition.outputTypeName), which is not a navigation coordinator\(consequence)",
                            fix:
                                "present it with @Route(.modal) or @Route(.fullScreen), or make it a NavigationCoordinatable"
                        ))
                }
            }
            findings += undrawableIcons(of: route, owner: explored.coordinator).map { icon in
                AppDiagnostic(
                    .warning, "unknownIcon", coordinator: type, route: route.name,
                    problem: "it names the icon '\(icon)', which the web page cannot draw (it shows the name instead)",
                    fix: "use an icon of the page's set (docs/state-document.md, Icons)")
            }
        }
        return findings
    }

    /// The icons a route's tab item or sample screen names that ``PageIcons/names`` lacks, each once.
    private static func undrawableIcons(of route: ExploredCoordinator.Route, owner: any Coordinatable) -> [String] {
        var icons: [String] = []
        if route.transition.kind == .tab, let item = route.transition.makeTabItem(owner: owner) {
            icons.append(item.icon)
        }
        if case .screen(let screen)? = route.product {
            for element in screen.render().content {
                switch element {
                case .image(let name, _): icons.append(name)
                case .list(let rows): icons += rows.compactMap(\.icon)
                case .text, .textField, .toggle, .button: break
                }
            }
        }
        var seen: Set<String> = []
        return icons.filter { !PageIcons.names.contains($0) && seen.insert($0).inserted }
    }
}
