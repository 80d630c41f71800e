/// How a screen or coordinator opened for a result ended, as its opener's handler receives it: exactly once, in the
/// transaction that removes it.
public enum RouteOutcome<Value: Sendable>: Sendable {
    /// It finished with a value (the `finish` step, or ``Coordinatable/finish(with:)``).
    case finished(Value)
    /// It left without one: a gesture (back, swipe down), a pop or dismiss, or a root switch that took it away.
    case cancelled

    /// The value, when it finished with one.
    public var value: Value? {
        if case .finished(let value) = self { return value }
        return nil
    }
}

extension RouteOutcome: Equatable where Value: Equatable {}
extension RouteOutcome: Hashable where Value: Hashable {}
