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
    /// The ``checksum(of:)`` of the document it was made against: a store other nodes write to compares it with
    /// the document it holds for ``base`` before keeping the delta. Nil for a delta read back from a store.
    public var baseChecksum: Int64?

    /// A delta read back from a store, or (with `baseChecksum`) one just made.
    public init(base: Int, bytes: [UInt8], baseChecksum: Int64? = nil) {
        self.base = base
        self.bytes = bytes
        self.baseChecksum = baseChecksum
    }

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
        return StateDelta(base: previous.version, bytes: bytes, baseChecksum: Checksum.of(previous.state))
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

    /// The restore document of `version`, rebuilt from what `read` gives for each version (nil: not stored): its
    /// nearest whole document, then each delta after it in order. Nil when a link of the chain is missing (the
    /// version, or one it builds on, is no longer kept) or damaged.
    public static func rebuild<Failure: Error>(
        _ version: Int, read: (Int) throws(Failure) -> Stored?
    ) throws(Failure) -> [UInt8]? {
        var deltas: [StateDelta] = []
        var wanted = version
        while true {
            switch try read(wanted) {
            case nil:
                return nil
            case .whole(let document):
                var state = document
                for delta in deltas.reversed() {
                    guard let next = delta.apply(to: state) else { return nil }
                    state = next
                }
                return state
            case .delta(let delta):
                guard delta.base < wanted, deltas.count < snapshotInterval * 4 else { return nil }
                deltas.append(delta)
                wanted = delta.base
            }
        }
    }
}
