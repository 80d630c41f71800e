/// Thrown out of the operation a guard redirected, up to the outermost transaction, which rolls the operation back
/// and follows the redirect instead.
struct GuardRedirect: Error {
    /// The route the guard kept from being entered.
    let target: PendingRoute
    /// The guard's redirect, applied from the root coordinator.
    let steps: [Step]

    /// `Owner.route`, for loop detection and messages.
    var label: String { "\(target.ownerType).\(target.route)" }
}
