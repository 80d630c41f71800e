/// Why a screen could not be described in full: its rendering went past a budget (an app declared as data gives
/// each screen's templates a budget of work), or a typed action names a route no coordinator holding the screen has.
/// A document showing such a screen is not committed: the change that would show it is refused, as a document past
/// its size limit is.
public struct ScreenRenderingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Cause: Sendable, Hashable {
        /// The rendering went past its budget: the data is too large to show (409 `renderingBudgetExceeded`).
        case budgetExceeded
        /// A typed action (``RouteAction``) names a route of a coordinator that never holds the screen: the app's
        /// own mistake, which `check` reports (500).
        case misplacedAction
    }

    /// What went wrong.
    public let cause: Cause
    /// What ran out or what is misplaced, for the problem's detail (`the screen 'Todos' needed more than 100000
    /// template steps`).
    public let reason: String

    /// A failure, with why.
    public init(reason: String, cause: Cause = .budgetExceeded) {
        self.reason = reason
        self.cause = cause
    }

    /// The reason.
    public var description: String { reason }
}
