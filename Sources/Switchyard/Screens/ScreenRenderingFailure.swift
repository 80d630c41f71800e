/// Why a screen could not be described in full: its rendering went past a budget (an app declared as data gives
/// each screen's templates a budget of work). A document showing such a screen is not committed: the change that
/// would show it is refused, as a document past its size limit is.
public struct ScreenRenderingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What ran out, for the problem's detail (`the screen 'Todos' needed more than 100000 template steps`).
    public let reason: String

    /// A failure, with why.
    public init(reason: String) {
        self.reason = reason
    }

    /// The reason.
    public var description: String { reason }
}
