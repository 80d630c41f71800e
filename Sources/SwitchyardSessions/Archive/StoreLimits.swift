/// What a durable store keeps of each session at most, so that no session (however busy, however large its
/// documents) can fill the disk: past a limit, the oldest history entries and remembered replies go first.
///
/// The current version is always kept, whatever the limits say: it is where a session's state is read from. The
/// bound on one session's footprint is then about `historyBytes + replyBytes` plus its current document. A store
/// that keeps deltas (``StateDelta``) drops history a segment at a time, so it may keep up to
/// ``StateDelta/snapshotInterval`` − 1 entries more than these limits say.
public struct StoreLimits: Sendable, Equatable {
    /// History entries (versions) kept per session; nil keeps as many as ``historyBytes`` allows.
    public var historyEntries: Int?
    /// Bytes of history kept per session: each entry counts its request body and its restore document.
    public var historyBytes: Int
    /// Answers remembered under idempotency keys per session. A successful answer is stored as a stub (its status
    /// and headers, no body: a retry is answered with the state of the version it reported), so the count, not the
    /// bytes, is what bounds how many keys a session remembers.
    public var replies: Int
    /// Bytes of remembered answers (bodies and headers) per session.
    public var replyBytes: Int

    /// Limits; the defaults keep about 1,000 versions of a small session and 1 MiB of history of any session, and
    /// the keys of its latest 1,024 keyed requests.
    public init(
        historyEntries: Int? = 1000, historyBytes: Int = 1 << 20, replies: Int = 1024, replyBytes: Int = 512 * 1024
    ) {
        self.historyEntries = historyEntries.map { max(1, $0) }
        self.historyBytes = max(0, historyBytes)
        self.replies = max(1, replies)
        self.replyBytes = max(0, replyBytes)
    }

    /// The defaults.
    public static let standard = StoreLimits()

    /// What the in-memory archive keeps by default: 50 versions and 64 KiB of history per session (the history a
    /// session in memory kept before sessions had time travel), and the latest 64 answers (128 KiB) under idempotency
    /// keys. Memory is scarcer than disk, these sessions end with the process anyway, and a session in memory
    /// remembers its answers itself: the archive's copy serves only a session read back after a change that could
    /// not be kept. With 200, 256 KiB, 200 demo sessions in steady use held 98 MiB; with these, about 55 MiB.
    public static let inMemory = StoreLimits(
        historyEntries: 50, historyBytes: 64 * 1024, replies: 64, replyBytes: 128 * 1024)
}
