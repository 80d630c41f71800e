import SwitchyardSessions

extension AnalyticsRefusal: ProblemRendering {
    /// The problem an analytics question's refusal answers with: 400 with the choices for input naming what is not
    /// served, 503 (or 500) for the store, 503 with `Retry-After` while an app's graph is explored.
    func problem(session: String) -> Problem {
        switch self {
        case .unknownStep(let step, let choices):
            Problem(
                status: 400, code: "unknownStep", title: "Malformed request",
                detail: "no route or flow event of the apps asked about is named '\(step)'; a step is a route name, "
                    + "a visible-path prefix such as authenticated/todos, or event:NAME",
                choices: choices)
        case .unknownApp(let app, let choices):
            Problem(
                status: 400, code: "unknownApp", title: "Malformed request",
                detail: "no served app is named '\(app)'", choices: choices)
        case .unknownVersion(let version, let app, let choices):
            Problem(
                status: 400, code: "unknownVersion", title: "Malformed request",
                detail: "\(app.map { "the app '\($0)' has no" } ?? "no served app has a") served version \(version)",
                choices: choices.map(String.init))
        case .invalid(let why): .malformed(why)
        case .store(let incident): .store(incident, data: "the stored sessions", kept: "nothing was counted")
        case .notReady(let why, let wait):
            Problem(
                status: 503, code: "notReady", title: "Not ready", detail: why,
                headers: [("Retry-After", String(wait))])
        }
    }
}
