/// A flow event (NavigationFlowCoordinator): sent from a screen or coordinator, handled by the sender's coordinator
/// first, then by each parent in turn until one returns true from ``Coordinatable/handle(_:)``.
public struct FlowEvent: Sendable, Hashable {
    /// The event name, e.g. `login`.
    public var name: String
    /// Data sent with the event.
    public var payload: JSONValue
    /// Values of the screen's fields sent along (text fields by id; toggles as "true"/"false").
    public var fields: [String: String]
    /// The id of the item or coordinator that sent it.
    public var sender: String

    /// Creates an event.
    public init(name: String, payload: JSONValue = .null, fields: [String: String] = [:], sender: String = "") {
        self.name = name
        self.payload = payload
        self.fields = fields
        self.sender = sender
    }

    /// Decodes the payload as a Swift value.
    public func payload<Value: Decodable>(as type: Value.Type) throws -> Value {
        try payload.decode(type)
    }
}

/// What a coordinator's `shouldLeave` hook says about a user gesture removing one of its items.
public enum LeaveDecision: Sendable, Hashable {
    /// Let the gesture proceed.
    case allow
    /// Refuse, with a reason the user is shown (e.g. "unsaved changes").
    case refuse(String)
}

/// The user gestures, which respect non-dismissible modals and `shouldLeave` vetoes.
public enum Gesture: String, Sendable, Hashable {
    case back, dismissModal, selectTab
}
