/// What a `@Route` may declare besides its factory and style: a guard, and the handler of its result.
///
/// Both are unapplied methods of the owner (like factories), so they belong to the route table of the type, survive
/// a restart with the session, and serve routes opened by name as well as from Swift.
struct RouteOptions<Owner: AnyObject> {
    /// Decides, each time the route would be entered, whether it may be.
    var guardCheck: ((Owner) -> () -> RouteGuardDecision)?
    /// Receives the outcome of what the route opened (routes to a ``ProducesResult`` output).
    var resultHandler: ((Owner, DeliveredOutcome) throws -> Void)?

    /// Gives the type-erased route its guard and result handler.
    func apply(to transition: AnyTransition) {
        if let guardCheck {
            transition.guardCheck = { owner in
                // Tables are per type, so the cast holds; were it ever not to, the guard fails closed.
                guard let owner = owner as? Owner else {
                    return .refuse(
                        code: "guardMisapplied",
                        message: "\(type(of: owner)) is not \(Article.withIndefinite("\(Owner.self)"))")
                }
                return guardCheck(owner)()
            }
        }
        if let resultHandler {
            transition.resultHandler = { owner, outcome in
                guard let owner = owner as? Owner else { return }
                try resultHandler(owner, outcome)
            }
        }
    }
}
