/// Declarations that cannot work, found before anything is served.
extension NavigationApp {
    /// Checks every coordinator type reachable from the root (found as the catalog finds them) for declarations that
    /// cannot work: a tab coordinator whose `TabNavigation` leaves out one of its `@TabRoute`s (never shown, unless
    /// listed in `addedLater:`) or lists a property that is not a `@TabRoute`, and a coordinator whose initial route
    /// is not one of its `@Root` routes. Returns the findings, errors first; none for a sound app.
    public func check() -> [AppDiagnostic] {
        let findings = exploredCoordinators().flatMap { Self.check($0.coordinator, $0.table) }
        return findings.filter { $0.severity == .error } + findings.filter { $0.severity == .warning }
    }

    private static func check(_ coordinator: any Coordinatable, _ table: RouteTable) -> [AppDiagnostic] {
        let type = table.typeName
        let binding = coordinator.binding
        switch binding.kind {
        case .tab:
            guard let (initial, later) = binding.listedTabs(of: coordinator) else { return [] }
            var findings: [AppDiagnostic] = []
            if initial.contains(where: { $0 == nil }) || later.contains(where: { $0 == nil }) {
                findings.append(
                    AppDiagnostic(
                        .error, coordinator: type,
                        problem: "its TabNavigation lists a property that is not a @TabRoute",
                        fix:
                            "list only @TabRoute properties: \(table.names(.tab).map { "\\.\($0)" }.joined(separator: ", "))"
                    ))
            }
            if initial.isEmpty {
                findings.append(
                    AppDiagnostic(
                        .error, coordinator: type, problem: "its TabNavigation shows no tab at first",
                        fix: "name the first tabs: TabNavigation(\\\(type).tab, …)"))
            }
            let listed = Set((initial + later).compactMap { $0 })
            for name in table.names(.tab) where !listed.contains(name) {
                findings.append(
                    AppDiagnostic(
                        .error, coordinator: type, route: name,
                        problem: "the tab route is not in its TabNavigation, so it is never shown",
                        fix: "add \\\(type).\(name) to TabNavigation(…), or to its addedLater: if addTab adds it"))
            }
            return findings
        case .root, .navigation:
            guard binding.initialRoot(of: coordinator) == nil else { return [] }
            return [
                AppDiagnostic(
                    .error, coordinator: type, problem: "its initial route is not one of its @Root routes",
                    fix: "start at a @Root route: \(table.names(.root).joined(separator: ", "))")
            ]
        }
    }
}
