import Switchyard

/// A session as a change left it, for the front end to render its answer. Valid only inside the render call it is
/// given to (the session's lock is held meanwhile); documents are rendered on demand and shared with the broadcast.
package struct SessionSnapshot {
    /// The session id.
    package let session: String
    private let engine: NavigationEngine
    private let documents: DocumentCache

    init(session: String, engine: NavigationEngine, documents: DocumentCache) {
        self.session = session
        self.engine = engine
        self.documents = documents
    }

    /// The session's version.
    package var version: Int { engine.version }

    /// The app version the session runs.
    package var app: AppVersion? { engine.app }

    /// The state document, with `result` members when given; `keep` keeps a new rendering for later reads (until
    /// the next change).
    package func document(result: [String: JSONValue]? = nil, keep: Bool = false) -> [UInt8] {
        documents.document(of: engine, result: result, keep: keep)
    }

    /// The short document (`Prefer: return=minimal`): session, version, visible path and `result`.
    package func summary(result: [String: JSONValue]) -> [UInt8] {
        engine.summaryDocument(session: session, result: result)
    }
}
