import MicroHTTP
import SwitchyardJSON

/// How a stream subscriber receives changes (`GET …/stream?updates=patch|state`).
///
/// Every stream starts with the whole state document (`event: state`). After that, ``patch`` (the default) sends each
/// change as an RFC 6902 JSON Patch from the version before (`event: patch`, `id: <version>`) whose first operation
/// tests `/version` (a client that missed a version sees the test fail and refetches); the whole document is sent
/// instead when the patch would be larger, or when the client fell behind. ``state`` sends the whole document for
/// every change, for clients that do not apply patches.
enum StreamUpdates: String, Sendable {
    case patch, state

    /// The choice a stream request makes; nil when `updates` names neither.
    init?(query value: String?) {
        guard let value else {
            self = .patch
            return
        }
        self.init(rawValue: value)
    }
}

/// One stream following a session, and how it takes changes.
struct Subscriber {
    let stream: EventStream
    let updates: StreamUpdates
}

/// The frames of one new version for every subscriber: the whole document, and the patch from the version the
/// subscribers have (made once, and only when a subscriber takes patches and the patch is the smaller).
struct StreamUpdate {
    let version: Int
    /// The new document; it keeps what the diff learns of its structure for the next version's diff.
    let document: IndexedJSONText
    /// The document every subscriber has: the last one streamed.
    let base: (version: Int, document: IndexedJSONText)?

    /// The whole document (`event: state`).
    var snapshot: EventFrame {
        EventFrame(
            id: String(version), event: "state", data: String(decoding: document.bytes, as: UTF8.self),
            role: .snapshot)
    }

    /// The patch from `base` (`event: patch`); nil without a base, for an older version, or when it is larger
    /// than the document.
    func patch() -> EventFrame? {
        guard let base, base.version < version else { return nil }
        let patch = JSONPatch.diff(
            from: base.document, to: document, testing: [("/version", .number(Double(base.version)))])
        guard patch.count < document.bytes.count else { return nil }
        return EventFrame(
            id: String(version), event: "patch", data: String(decoding: patch, as: UTF8.self), role: .delta)
    }
}
