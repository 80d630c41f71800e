/// An archive that several server processes (nodes) write to at once, such as a PostgreSQL database.
///
/// Any node may change any session, so a node's copy in memory can fall behind: before serving a session the
/// server asks ``session(_:unlessAt:reply:)`` whether it moved on, and every change is a compare-and-set
/// (``ArchiveWrite/change(session:base:version:state:history:reply:)``). For a change without an idempotency
/// key (not a preview) it asks only when a notice said the session moved on, or before an answer without a write.
/// To keep event streams live across nodes, the archive tells every node what was written (``follow(_:)``), and
/// the server reconciles the sessions it streams with ``versions(of:)`` now and then, so that a notice lost while
/// a node was disconnected is made up.
public protocol SharedSessionArchive: SessionArchive {
    /// The stored versions of these sessions, in one read; sessions not stored are absent.
    func versions(of sessions: [String]) throws(ArchiveError) -> [String: Int]
    /// The stored session unless it is stored at version `version` (then only that is said, with the answer
    /// remembered under idempotency key `key` when one is asked for and stored), in one read: what a node asks
    /// before serving its copy of a session.
    func session(_ id: String, unlessAt version: Int, reply key: String?) throws(ArchiveError) -> StoredSessionRead
    /// Starts telling `observer` what any node (this one included) stored, on a thread of the archive's; every
    /// observer gets every notice. Notices of different nodes may arrive in another order than their commits (a
    /// notice only says that a session reached a version: the observer reads the store). Notices may be lost while
    /// the archive is disconnected: it says ``ArchiveNotice/resumed`` when it can tell again.
    func follow(_ observer: @escaping @Sendable (ArchiveNotice) -> Void)
}

extension SharedSessionArchive {
    public var shared: (any SharedSessionArchive)? { self }

    /// Two reads at most: the version, then the session if it moved or a reply is asked for (archives that can do
    /// it in one read override this).
    public func session(
        _ id: String, unlessAt version: Int, reply key: String?
    ) throws(ArchiveError)
        -> StoredSessionRead
    {
        guard let stored = try self.version(of: id) else { return .absent }
        guard stored != version || key != nil else { return .unchanged(reply: nil) }
        guard let session = try session(id) else { return .absent }
        guard session.version == version else { return .changed(session) }
        return .unchanged(reply: session.replies.last { $0.key == key })
    }
}

/// What ``SharedSessionArchive/session(_:unlessAt:)`` found.
public enum StoredSessionRead: Sendable {
    /// The session is not stored (deleted, expired, or never created).
    case absent
    /// It is stored at the version asked about (with the reply asked for, if stored).
    case unchanged(reply: StoredReply?)
    /// It is stored at another version: here it is.
    case changed(StoredSession)
}

/// What a ``SharedSessionArchive`` tells the nodes following it.
public enum ArchiveNotice: Sendable, Equatable {
    /// A session is stored at a new version.
    case changed(session: String, version: Int)
    /// A session ended (deleted or expired).
    case removed(session: String)
    /// The archive follows again after a disconnection, in which notices may have been lost: reconcile.
    case resumed
}
