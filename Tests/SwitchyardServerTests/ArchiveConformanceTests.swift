import SwitchyardSessions
import SwitchyardSessionsTesting
import Testing

/// One contract for every store: memory, SQLite and PostgreSQL pass every check of ``ArchiveConformance``, the
/// suite a third party runs against its own store.
@Suite("Store conformance")
struct ArchiveConformanceTests {
    static func session(_ id: String, time: Double = 1000) -> StoredSession {
        StoredSession(id: id, app: "todo", version: 0, state: state(0), lastAccess: time, used: false)
    }

    static func state(_ version: Int, _ note: String = "") -> [UInt8] {
        Array(#"{"v":\#(version)\#(note)}"#.utf8)
    }

    @Test(arguments: ArchiveKind.available, ArchiveConformance.checks)
    func theStoreKeepsTheContract(kind: ArchiveKind, check: ArchiveConformance.Check) throws {
        var storage: [AnyObject] = []
        defer { storage.removeAll() }
        try check.run { limits in
            let (archive, keep) = try kind.open(limits: limits)
            if let keep { storage.append(keep) }
            return archive
        }
    }

    /// The protocol's default reading of journeys (for a store without one of its own) keeps the contract.
    @Test func theDefaultReadingOfJourneysKeepsTheContract() throws {
        let check = try #require(
            ArchiveConformance.checks.first { $0.name == "journeysAreReadInTheOrderAskedWithTheirHistoryOldestFirst" })
        try check.run { limits in PlainArchive(forwarded: MemorySessionArchive(limits: limits)) }
    }

    /// The checks can fail: an archive that forgets what it stored does not pass.
    @Test func aForgetfulStoreFails() {
        let failures = ArchiveConformance.checks.filter { check in
            (try? check.run { limits in ForgetfulArchive(MemorySessionArchive(limits: limits)) }) == nil
        }
        // Half of the checks, not counting the published apps' (it has nothing to forget).
        #expect(failures.count >= (ArchiveConformance.checks.count - 1) / 2, "\(failures)")
    }
}

/// An archive that stores nothing of a change's history.
private struct ForgetfulArchive: SessionArchive {
    let inner: MemorySessionArchive
    init(_ inner: MemorySessionArchive) { self.inner = inner }
    func apply(_ writes: [ArchiveWrite]) throws(ArchiveError) {
        try inner.apply(
            writes.map { write in
                guard case .change(let id, let base, let version, let state, _, let reply) = write else { return write }
                return .change(session: id, base: base, version: version, state: state, history: [], reply: reply)
            })
    }
    func session(_ id: String) throws(ArchiveError) -> StoredSession? { try inner.session(id) }
    func history(of session: String, after: Int?, limit: Int) throws(ArchiveError) -> [StoredChange] {
        try inner.history(of: session, after: after, limit: limit)
    }
    func state(of session: String, at version: Int) throws(ArchiveError) -> [UInt8]? {
        try inner.state(of: session, at: version)
    }
    func version(of session: String) throws(ArchiveError) -> Int? { try inner.version(of: session) }
    func sessionIDs(ofApp app: String, after: String?, limit: Int) throws(ArchiveError) -> [String] {
        try inner.sessionIDs(ofApp: app, after: after, limit: limit)
    }
    func creation(_ key: String) throws(ArchiveError) -> StoredReply? { try inner.creation(key) }
    func expire(usedBefore: Double, unusedBefore: Double) throws(ArchiveError) -> [String] {
        try inner.expire(usedBefore: usedBefore, unusedBefore: unusedBefore)
    }
    func close() { inner.close() }
}

/// An archive with only the protocol's requirements of its own: every default applies.
private struct PlainArchive: ForwardingArchive {
    let forwarded: any SessionArchive
}
