import Switchyard

/// The data of one session of a defined app: a JSON object every coordinator of the session reads and changes,
/// saved with the session by its root coordinator.
final class SessionData {
    var value: JSONValue {
        didSet { revision += 1 }
    }
    /// Counts every change of ``value`` (undoing one too): the screens that read only it and fixed values render
    /// again only when it moved (``DefinedScreen/contentRevision``).
    private(set) var revision = 0

    init(_ value: JSONValue) {
        self.value = value
    }
}
