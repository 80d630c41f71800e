/// How a stream subscriber receives changes (`GET …/stream?updates=patch|state`).
///
/// Every stream starts with the whole state document (`event: state`). After that, ``patch`` (the default) sends each
/// change as an RFC 6902 JSON Patch from the version before (`event: patch`, `id: <version>`) whose first operation
/// tests `/version` (a client that missed a version sees the test fail and refetches); the whole document is sent
/// instead when the patch would be larger, or when the client fell behind. ``state`` sends the whole document for
/// every change, for clients that do not apply patches.
package enum StreamUpdates: String, Sendable {
    case patch, state

    /// The choice a stream request makes; nil when `updates` names neither.
    package init?(query value: String?) {
        guard let value else {
            self = .patch
            return
        }
        self.init(rawValue: value)
    }
}
