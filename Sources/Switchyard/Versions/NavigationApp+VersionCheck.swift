/// What ``NavigationApp/check()`` finds in an app's version and migrations.
extension NavigationApp {
    /// Errors: a version below 1, a migration from this version or a later one, two migrations from one version, and
    /// a rename or landing that names a coordinator or route this version does not declare (the migrated sessions
    /// could not restore).
    func checkVersion(_ explored: [ExploredCoordinator]) -> [AppDiagnostic] {
        var findings: [AppDiagnostic] = []
        if version < 1 {
            findings.append(
                AppDiagnostic(
                    .error, "invalidVersion", problem: "version \(version) is not a version",
                    fix: "number versions from 1: NavigationApp(name: \"\(name)\", version: 1, …)"))
        }
        let routes = Dictionary(explored.map { ($0.table.typeName, Set($0.table.order)) }) { first, _ in first }
        let froms = migrations.map(\.from)
        for from in Set(froms).sorted() where froms.count(where: { $0 == from }) > 1 {
            findings.append(
                AppDiagnostic(
                    .error, "duplicateMigration", problem: "several migrations lead from version \(from)",
                    fix: "merge their rules into one AppMigration(from: \(from))"))
        }
        for migration in migrations {
            if migration.from >= version {
                findings.append(
                    AppDiagnostic(
                        .error, "migrationFromLaterVersion",
                        problem: "a migration from version \(migration.from) is declared on version \(version)",
                        fix: "declare a migration on the version it leads to, from an earlier one"))
            }
            for coordinator in migration.renamedCoordinatorTargets where routes[coordinator] == nil {
                findings.append(
                    AppDiagnostic(
                        .error, "migrationTargetMissing", coordinator: coordinator,
                        problem: "the migration from version \(migration.from) renames a coordinator to one version "
                            + "\(version) does not have",
                        fix: "rename to one of \(routes.keys.sorted().joined(separator: ", "))"))
            }
            for (coordinator, route) in migration.introducedRoutes {
                guard let declared = routes[coordinator] else {
                    // A rename to a missing coordinator is reported above, once.
                    if migration.renamedCoordinatorTargets.contains(coordinator) { continue }
                    findings.append(
                        AppDiagnostic(
                            .error, "migrationTargetMissing", coordinator: coordinator,
                            problem: "the migration from version \(migration.from) moves sessions to a coordinator "
                                + "version \(version) does not have",
                            fix: "rename to a coordinator type the app reaches, or declare it"))
                    continue
                }
                if !declared.contains(route) {
                    findings.append(
                        AppDiagnostic(
                            .error, "migrationTargetMissing", coordinator: coordinator, route: route,
                            problem: "the migration from version \(migration.from) moves sessions to a route "
                                + "version \(version) does not declare",
                            fix: "name one of \(declared.sorted().joined(separator: ", "))"))
                }
            }
        }
        return findings
    }
}
