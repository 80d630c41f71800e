import Switchyard

/// An app whose declarations cannot work (``Switchyard/NavigationApp/check()`` found errors): the server does not
/// start. Its description is one line per error.
public struct AppCheckFailure: Error, CustomStringConvertible {
    /// The errors, by app.
    public let errors: [(app: String, diagnostic: AppDiagnostic)]

    /// The errors `apps` have; nil when they have none.
    public init?(checking apps: [NavigationApp]) {
        let errors = NavigationApp.check(apps).filter { $0.diagnostic.severity == .error }
        guard !errors.isEmpty else { return nil }
        self.errors = errors
    }

    public var description: String {
        errors.map { "app '\($0.app)': \($0.diagnostic)" }.joined(separator: "\n")
    }
}
