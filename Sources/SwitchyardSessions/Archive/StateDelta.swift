import Gzip

/// A version's restore document stored as the change from the version before it: what a durable store keeps
/// between snapshots instead of the whole document (about a tenth of its bytes for a typical change).
///
/// The bytes are a ``Gzip/DeflateDelta``: the new document compressed with the one before as the dictionary.
/// Applying it gives the document back byte for byte, so reading a version, time travel, `Last-Event-ID` replay
/// and restore see exactly what was stored before deltas existed.
///
/// The session layer decides where the chains break: a whole document (a snapshot) every ``snapshotInterval``
/// versions, whenever the version before is not known, and whenever a delta would not save half the document. A
/// store keeps what it is given (a store other nodes write to keeps a delta only on the document it was made
/// against: ``baseChecksum``); reading a version walks back to the nearest whole document
/// (``rebuild(_:read:)``), at most ``snapshotInterval`` − 1 deltas away. Retention drops whole segments: a
/// history entry goes only with the entries that build on it.
public struct StateDelta: Sendable, Equatable {
    /// The version whose restore document this delta applies to (the one before).
    public var base: Int
    /// The delta's bytes.
    public var bytes: [UInt8]
    /// The document it was made against, when it was just made (nil for a delta read back from a store): shared
    /// with the version before, not copied.
    private var baseDocument: [UInt8]?

    /// A delta read back from a store.
    public init(base: Int, bytes: [UInt8]) {
        self.base = base
        self.bytes = bytes
    }

    /// A delta just made against `document`, the restore document of version `base`.
    init(base: Int, bytes: [UInt8], madeAgainst document: [UInt8]) {
        self.base = base
        self.bytes = bytes
        baseDocument = document
    }

    /// Whether it was just made, so that ``baseChecksum`` is known.
    public var knowsItsBase: Bool { baseDocument != nil }

    /// The ``checksum(of:)`` of the document it was made against: a store other nodes write to compares it with
    /// the document it holds for ``base`` before keeping the delta. Computed when asked (one store asks; a
    /// checksum of every change's document was 1 % of a change with SQLite); nil for a delta read back.
    public var baseChecksum: Int64? { baseDocument.map(Checksum.of) }

    /// A document's checksum (64 bits: zlib's Adler-32 and CRC-32), for telling stored documents apart.
    public static func checksum(of document: [UInt8]) -> Int64 {
        Checksum.of(document)
    }

    /// A whole document every this many versions. Chosen by measurement (`make bench`, `store.changeBytes` and
    /// `store.timeTravel`): with 16, a demo change adds about 300 bytes to the store instead of about 1,400, and
    /// reading any version back and restoring it (up to 15 deltas applied) takes under 0.3 ms at the 99th
    /// percentile.
    public static let snapshotInterval = 16

    /// How `state`, the restore document of `version`, is best stored when the document of the version before is
    /// `previous` (nil when not known): nil for a whole document (a snapshot), or a delta.
    public static func make(
        version: Int, state: [UInt8], previous: (version: Int, state: [UInt8])?
    ) -> StateDelta? {
        guard let previous, previous.version == version - 1, !previous.state.isEmpty, !state.isEmpty,
            version % snapshotInterval != 0,
            let bytes = DeflateDelta.make(from: previous.state, to: state),
            bytes.count * 2 < state.count
        else { return nil }
        return StateDelta(base: previous.version, bytes: bytes, madeAgainst: previous.state)
    }

    /// The restore document this delta makes of `base` (the document of version ``base``); nil if the delta is
    /// damaged or was made against other bytes.
    public func apply(to base: [UInt8]) -> [UInt8]? {
        DeflateDelta.apply(bytes, to: base)
    }

    /// How one version's restore document is stored.
    public enum Stored: Sendable, Equatable {
        /// The whole document.
        case whole([UInt8])
        /// A delta from the version before.
        case delta(StateDelta)

        /// What a store's row holds: `bytes` as a delta from version `base`, or (no base) the whole document; nil
        /// for a row without a document (written before documents were kept).
        public init?(bytes: [UInt8], base: Int?) {
            if let base {
                self = .delta(StateDelta(base: base, bytes: bytes))
            } else if bytes.isEmpty {
                return nil
            } else {
                self = .whole(bytes)
            }
        }
    }

    /// What rebuilding a version's restore document came to.
    public enum Rebuilt: Sendable, Equatable {
        /// The document.
        case state([UInt8])
        /// The version is not stored (never, or no longer: history is trimmed a whole chain at a time).
        case notKept
        /// The version is stored but its document cannot be made: a link of its chain is missing or damaged.
        case damaged(String)

        /// The document, or nil when there is none for any reason.
        public var document: [UInt8]? {
            if case .state(let document) = self { document } else { nil }
        }
    }

    /// The restore document of `version`, rebuilt from what `read` gives for each version (nil: not stored): its
    /// nearest whole document, then each delta after it in order. ``Rebuilt/notKept`` when the version itself is
    /// not stored; ``Rebuilt/damaged(_:)`` when it is but a link of its chain is missing (history is never trimmed
    /// inside a chain) or a delta does not apply: a damaged store, which its caller reports.
    public static func rebuild<Failure: Error>(
        _ version: Int, read: (Int) throws(Failure) -> Stored?
    ) throws(Failure) -> Rebuilt {
        var deltas: [StateDelta] = []
        var wanted = version
        while true {
            switch try read(wanted) {
            case nil:
                return wanted == version
                    ? .notKept : .damaged("version \(version) builds on version \(wanted), which is missing")
            case .whole(let document):
                var state = document
                for delta in deltas.reversed() {
                    guard let next = delta.apply(to: state) else {
                        return .damaged(
                            "the delta of version \(version)'s chain from version \(delta.base) does not apply")
                    }
                    state = next
                }
                return .state(state)
            case .delta(let delta):
                guard delta.base < wanted, deltas.count < snapshotInterval * 4 else {
                    return .damaged("version \(wanted) builds on version \(delta.base), which it cannot")
                }
                deltas.append(delta)
                wanted = delta.base
            }
        }
    }
}

extension StateDelta.Rebuilt {
    /// The document for ``SessionArchive/state(of:at:)``: nil when the version is not kept; a damaged chain is
    /// ``ArchiveError/unreadable(_:)`` (the session layer logs it with an incident and readiness reports it).
    public func kept(_ session: String) throws(ArchiveError) -> [UInt8]? {
        switch self {
        case .state(let document): document
        case .notKept: nil
        case .damaged(let reason): throw .unreadable("session \(session.prefix(6))…: \(reason)")
        }
    }
}
