import SwitchyardJSON

/// What one event of a session's stream does to the document a client holds: the stream sends the whole state
/// (`event: state`), then each change as a JSON Patch from the version before (`event: patch`, whose first
/// operation tests `/version`), so a patch that does not apply means a version was missed.
public enum StreamStep: Sendable, Equatable {
    /// The document now.
    case document(SessionDocument)
    /// The event does not follow on from the document held (a missed version, an unreadable event): read the whole
    /// state again. Why.
    case gap(String)
    /// An event of another type: nothing changes.
    case ignored

    /// The step `event` makes from `current`.
    public static func of(_ event: ServerSentEvent, after current: SessionDocument?) -> StreamStep {
        switch event.type {
        case "state":
            guard let json = try? JSONValue(parsing: Array(event.data.utf8)), let document = SessionDocument(json)
            else { return .gap("a state event that is not a state document") }
            if let current, document.version < current.version {
                return .gap("the state went back from version \(current.version) to \(document.version)")
            }
            return .document(document)
        case "patch":
            guard let current else { return .gap("a patch before any state") }
            guard let patch = try? JSONValue(parsing: Array(event.data.utf8)) else {
                return .gap("a patch that is not JSON")
            }
            guard let patched = try? JSONPatch.apply(patch, to: current.json), let document = SessionDocument(patched),
                document.version > current.version
            else { return .gap("a patch that does not apply to version \(current.version)") }
            return .document(document)
        default:
            return .ignored
        }
    }
}
