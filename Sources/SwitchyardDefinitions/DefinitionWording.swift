import Switchyard

/// The engine's findings said in a definition's words: the engine's check speaks Swift (`TabNavigation`,
/// `@Root`, `@Route(.modal)`), which an author of a JSON or YAML file never wrote. Findings without a wording of
/// their own keep the engine's.
enum DefinitionWording {
    /// The problem and the fix of `finding`, for the definition's coordinator `coordinator` (nil: the app).
    static func words(
        for finding: AppDiagnostic, coordinator: CoordinatorDefinition?
    ) -> (problem: String, fix: String?) {
        let route = finding.route.map { "'\($0)'" } ?? "the route"
        let roots = coordinator?.routes.filter { $0.kind == .root }.map(\.name) ?? []
        let tabs = coordinator?.routes.filter { $0.kind == .tab }.map(\.name) ?? []
        switch finding.code {
        case "missingName":
            return ("the app has no name", "give the definition a \"name\"")
        case "noTabs":
            return ("its \"tabs\" list no tab to show at first", "list the first tabs in \"tabs\": \(list(tabs))")
        case "tabNotListed":
            return (
                "the tab route \(route) is in neither \"tabs\" nor \"addedLater\", so it is never shown",
                "add \(route) to \"tabs\", or to \"addedLater\" if an operation adds it"
            )
        case "notATabRoute":
            return (
                "its \"tabs\" name a route that is not of kind tab",
                "list only routes of \"kind\": \"tab\": \(list(tabs))"
            )
        case "initialNotRoot":
            return (
                "its \"initial\" is not a route of kind root", "start at a route of \"kind\": \"root\": \(list(roots))"
            )
        case "pushWithoutStack":
            return (
                "\(route) is pushed, but a coordinator of kind \(coordinator?.kind.rawValue ?? "root") has no stack",
                "give it \"presentation\": \"modal\" or \"fullScreen\", or move it to a coordinator of kind stack"
            )
        case "cannotPush":
            return (
                "\(route) pushes a coordinator that is not of kind stack",
                "give it \"presentation\": \"modal\" or \"fullScreen\", or make its target a coordinator of kind stack"
            )
        case "unnamedEvent":
            return ("it declares an event without a name", "name every event under \"events\"")
        case "duplicateEvent":
            return (finding.problem, "declare each event once under \"events\"")
        default:
            return (finding.problem, finding.fix)
        }
    }

    private static func list(_ names: [String]) -> String {
        names.isEmpty ? "none declared" : names.map { "'\($0)'" }.joined(separator: ", ")
    }
}
