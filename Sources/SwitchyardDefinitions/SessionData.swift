import Switchyard

/// The data of one session of a defined app: a JSON object every coordinator of the session reads and changes,
/// saved with the session by its root coordinator.
final class SessionData {
    var value: JSONValue

    init(_ value: JSONValue) {
        self.value = value
    }
}
