/// Why an analytics question cannot be answered: input naming what is not there (with the choices), or the store.
package enum AnalyticsRefusal: Error, Sendable, Equatable {
    /// A step names neither a route nor a flow event of the apps asked about; the choices are those.
    case unknownStep(String, choices: [String])
    /// No served app has this name.
    case unknownApp(String, choices: [String])
    /// The app (or no served app, when nil) has no served version by this number.
    case unknownVersion(Int, app: String?, choices: [Int])
    /// Input that is not what it should be (a step left empty, a window that ends before it starts), and why.
    case invalid(String)
    /// The store failed while the sessions were read.
    case store(StoreHealth.Incident)
    /// What the answer needs is being made (an app's graph explored): ask again after `retryAfter` seconds.
    case notReady(String, retryAfter: Int)
}

extension AnalyticsRefusal: CustomStringConvertible {
    /// What is wrong, with the choices, in a sentence (for the command line).
    package var description: String {
        switch self {
        case .unknownStep(let step, let choices):
            "no route or flow event is named '\(step)' (steps: \(choices.joined(separator: ", ")))"
        case .unknownApp(let app, let choices):
            "no served app is named '\(app)' (apps: \(choices.joined(separator: ", ")))"
        case .unknownVersion(let version, let app, let choices):
            "\(app.map { "the app '\($0)' has" } ?? "no served app has") version \(version) (versions: "
                + choices.map(String.init).joined(separator: ", ") + ")"
        case .invalid(let why): why
        case .store(let incident): "the store failed: \(incident.error)"
        case .notReady(let why, _): why
        }
    }
}
