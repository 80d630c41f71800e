/// A ``RouteOutcome`` with its value's type erased, as the engine carries it to a handler.
enum DeliveredOutcome {
    case finished(any Sendable)
    case cancelled

    /// The typed outcome; nil when the value is not a `Value` (the route's result type is checked before).
    func typed<Value: Sendable>(_: Value.Type) -> RouteOutcome<Value>? {
        switch self {
        case .finished(let value): (value as? Value).map { .finished($0) }
        case .cancelled: .cancelled
        }
    }
}
