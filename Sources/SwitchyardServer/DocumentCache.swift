import Switchyard

/// The rendered state document of a session's current version, and the check that bounds its size.
///
/// A change renders its document once, just before it commits (the engine's ``NavigationEngine/commitCheck``), and
/// the response, the broadcast and later reads reuse it. Reads keep their rendering until the next change request
/// (app code runs only inside those). After a change's response the rendering is dropped unless a stream follows
/// the session: an idle session holds no rendered copy.
final class DocumentCache {
    private(set) var bytes: [UInt8]?
    /// With a durable store: the restore document of each version committed since ``forget()``, for its history
    /// entry (a change can commit twice: itself, then the pending deep link it made possible).
    private(set) var restoreDocuments: [Int: [UInt8]] = [:]
    private let session: String
    private let maxBytes: Int
    private let keepsRestoreDocuments: Bool

    init(session: String, maxBytes: Int, keepsRestoreDocuments: Bool) {
        self.session = session
        self.maxBytes = maxBytes
        self.keepsRestoreDocuments = keepsRestoreDocuments
    }

    /// Installs the size check on `engine`: a change whose document would pass the limit is refused (409
    /// `documentTooLarge`) and rolled back; the rendering of an accepted one is kept.
    func check(_ engine: NavigationEngine) {
        engine.commitCheck = { [unowned self] engine in
            let document = engine.stateDocument(session: session)
            guard document.count <= maxBytes else {
                bytes = nil
                var problem = Problem(
                    status: 409, code: "documentTooLarge", title: "Session limit reached",
                    detail: "the change would make the state document \(document.count) bytes, over the session's "
                        + "limit of \(maxBytes); nothing was applied (go back or dismiss something first)")
                problem.extra = [("limit", Array(String(maxBytes).utf8))]
                throw problem
            }
            if keepsRestoreDocuments {
                // A state that cannot be stored is refused like one that is too large: nothing is applied.
                restoreDocuments[engine.version] = try engine.restoreDocument()
            }
            bytes = document
        }
    }

    /// The document of `engine`'s current version, rendered now unless it is kept; `keep` keeps a new rendering.
    func document(of engine: NavigationEngine, keep: Bool) -> [UInt8] {
        if let bytes { return bytes }
        let rendered = engine.stateDocument(session: session)
        if keep { bytes = rendered }
        return rendered
    }

    /// Forgets the rendering (before app code runs, or when nobody follows the session).
    func forget() {
        bytes = nil
    }

    /// The restore documents kept since the change began, which are given up (the store has them now).
    func takeRestoreDocuments() -> [Int: [UInt8]] {
        defer { restoreDocuments = [:] }
        return restoreDocuments
    }

    /// Before a change runs app code: forgets the rendering and the restore documents of earlier changes.
    func beginChange() {
        bytes = nil
        restoreDocuments.removeAll(keepingCapacity: true)
    }
}
