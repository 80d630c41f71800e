import Switchyard

/// The rendered state document of a session's current version, and the restore documents of the versions a change
/// commits.
///
/// A change renders its document once, as each commit is checked (``checkingCommits(of:_:)``), and the answer, the
/// broadcast and later reads reuse it. Reads keep their rendering until the next change (app code runs only inside
/// those). After a change's answer the rendering is dropped unless a stream follows the session: an idle session
/// holds no rendered copy.
final class DocumentCache {
    private(set) var bytes: [UInt8]?
    /// The restore document of each version committed since ``beginChange()``, for its history entry (a change can
    /// commit twice: itself, then the pending deep link it made possible).
    private(set) var restoreDocuments: [Int: [UInt8]] = [:]
    private let session: String
    private let maxBytes: Int
    private let keepsRestoreDocuments: Bool

    /// `keepsRestoreDocuments`: false for a scratch copy whose commits are never stored (a preview).
    init(session: String, maxBytes: Int, keepsRestoreDocuments: Bool = true) {
        self.session = session
        self.maxBytes = maxBytes
        self.keepsRestoreDocuments = keepsRestoreDocuments
    }

    /// Runs `body`, a change of `engine`, checking each commit it makes: one whose document would pass the limit is
    /// refused (``ChangeRefusal/documentTooLarge(bytes:limit:)``) and rolled back; the rendering of an accepted one
    /// is kept. The check is installed for `body` only: the engine holds no reference to the cache otherwise.
    func checkingCommits<Result>(of engine: NavigationEngine, _ body: () -> Result) -> Result {
        engine.commitCheck = { [self] engine in try admit(engine) }
        defer { engine.commitCheck = nil }
        return body()
    }

    private func admit(_ engine: NavigationEngine) throws {
        let document: [UInt8]
        switch checkedDocument(of: engine) {
        case .success(let checked): document = checked
        case .failure(let refusal):
            bytes = nil
            throw refusal
        }
        if keepsRestoreDocuments {
            // A state that cannot be stored is refused like one that is too large: nothing is applied. The stored
            // form has the same limit: it holds data the screens need not show (an app's own data), which must not
            // grow without bound either.
            let restore = try engine.restoreDocument()
            guard restore.count <= maxBytes else {
                bytes = nil
                throw ChangeRefusal.documentTooLarge(bytes: restore.count, limit: maxBytes)
            }
            restoreDocuments[engine.version] = restore
        }
        bytes = document
    }

    /// Checks the first document of a new session (`engine` as made) as a commit is checked, keeping its rendering
    /// for the creation's answer.
    func admitFirst(_ engine: NavigationEngine) -> Result<Void, ChangeRefusal> {
        checkedDocument(of: engine).map { bytes = $0 }
    }

    /// The state document of `engine` when it is within the limits a commit is checked against: every screen
    /// rendered in full (``ChangeRefusal/renderingBudgetExceeded(_:)``) and at most `maxBytes`.
    private func checkedDocument(of engine: NavigationEngine) -> Result<[UInt8], ChangeRefusal> {
        switch engine.checkedStateDocument(session: session) {
        case .failure(let failure): .failure(.renderingBudgetExceeded(failure.reason))
        case .success(let document) where document.count > maxBytes:
            .failure(.documentTooLarge(bytes: document.count, limit: maxBytes))
        case .success(let document): .success(document)
        }
    }

    /// The document of `engine`'s current version, rendered now unless it is kept; `keep` keeps a new rendering.
    /// With `result`, its members are added (`"result":{…}`), for a change's answer.
    func document(of engine: NavigationEngine, result: [String: JSONValue]? = nil, keep: Bool = false) -> [UInt8] {
        let base: [UInt8]
        if let bytes {
            base = bytes
        } else {
            base = engine.stateDocument(session: session)
            if keep { bytes = base }
        }
        guard let result else { return base }
        var bytes = base
        bytes.removeLast()  // the closing brace
        bytes.append(contentsOf: ",\"result\":".utf8)
        bytes.append(contentsOf: JSONValue.object(result).serialized())
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Forgets the rendering (after lifecycle hooks ran, or when nobody follows the session).
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
