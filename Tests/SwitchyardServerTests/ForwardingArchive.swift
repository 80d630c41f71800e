import SwitchyardSessions

/// An archive around another that forwards every call to it: a test's wrapper implements only what it changes
/// (``GatedArchive``, ``HeldReadsArchive``).
protocol ForwardingArchive: SessionArchive {
    /// The archive the calls go to.
    var forwarded: any SessionArchive { get }
}

extension ForwardingArchive {
    var isDurable: Bool { forwarded.isDurable }
    var storesDeltas: Bool { forwarded.storesDeltas }
    var condition: ArchiveCondition { forwarded.condition }
    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) { try forwarded.apply(writes) }
    func session(_ id: String) throws(ArchiveError) -> StoredSession? { try forwarded.session(id) }
    func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try forwarded.history(of: session, after: after, limit: limit)
    }
    func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try forwarded.state(of: session, at: version)
    }
    func creation(_ key: String) throws(ArchiveError) -> StoredReply? { try forwarded.creation(key) }
    func version(of session: String) throws(ArchiveError) -> Int? { try forwarded.version(of: session) }
    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try forwarded.sessionIDs(ofApp: app, after: after, limit: limit)
    }
    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        try forwarded.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
    }
    func close() { forwarded.close() }
}
