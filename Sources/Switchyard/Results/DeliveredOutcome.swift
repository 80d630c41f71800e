/// A ``RouteOutcome`` with its value's type erased, as the engine carries it to a handler.
package enum DeliveredOutcome {
    case finished(any Sendable)
    case cancelled

    /// Hands the outcome, typed, to `handler`; nothing when the value is not a `Value` (the route's result type is
    /// checked before).
    func deliver<Value: Sendable>(to handler: (RouteOutcome<Value>) throws -> Void) rethrows {
        switch self {
        case .finished(let value):
            guard let value = value as? Value else { return }
            try handler(.finished(value))
        case .cancelled:
            try handler(.cancelled)
        }
    }
}
