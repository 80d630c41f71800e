/// One event of a `text/event-stream` (the WHATWG Server-Sent Events format): its type, data and id.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field (`message` when the event names none).
    public var type: String
    /// The `data:` lines, joined with newlines.
    public var data: String
    /// The `id:` field, when the event has one (what `Last-Event-ID` sends back on a reconnection).
    public var id: String?

    /// An event.
    public init(type: String = "message", data: String, id: String? = nil) {
        self.type = type
        self.data = data
        self.id = id
    }
}
