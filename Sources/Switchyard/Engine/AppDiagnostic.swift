/// Something ``NavigationApp/check()`` found in an app's declarations: what is wrong, where, and how to fix it.
public struct AppDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How bad it is.
    public enum Severity: String, Sendable, Hashable {
        /// The declarations cannot work as written: a server refuses to start.
        case error
        /// They work, but probably not as meant: logged at start.
        case warning
    }

    public let severity: Severity
    /// A stable identifier for tools, e.g. `tabNotListed`.
    public let code: String
    /// The coordinator type; nil for the app as a whole (its name, or two apps with one name).
    public let coordinator: String?
    /// The route concerned, if any.
    public let route: String?
    /// What is wrong.
    public let problem: String
    /// How to fix it.
    public let fix: String

    /// A finding.
    public init(
        _ severity: Severity, _ code: String, coordinator: String? = nil, route: String? = nil, problem: String,
        fix: String
    ) {
        self.severity = severity
        self.code = code
        self.coordinator = coordinator
        self.route = route
        self.problem = problem
        self.fix = fix
    }

    /// `error: AppCoordinator, route 'inbox': … (fix: …)`: one readable line.
    public var description: String {
        let place = [coordinator, route.map { "route '\($0)'" }].compactMap { $0 }.joined(separator: ", ")
        return "\(severity.rawValue): \(place.isEmpty ? "" : "\(place): ")\(problem) (fix: \(fix))"
    }
}
