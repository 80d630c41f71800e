/// What the sessions a writer changed keep in the store (bytes of history and of replies, and which
/// versions), so that checking a change against ``SwitchyardServer/StoreLimits`` and against the version it builds on
/// costs no read: what is not known is read once (after a restart, after a failed commit made it unknown, or after
/// another connection wrote the store) and then kept up to date by each write.
///
/// Each is wrong only on the safe side. A byte total may run high, never low: a write that replaces a row (a reply
/// stored again, a state rewritten in place) only adds; trimming reads the real sizes. Of the versions, the latest
/// is exact (only this writer's connection changes sessions, and ``forgetAll()`` is called when another one wrote),
/// the floor a lower bound (versions may have gaps), and whether the latest version's document is stored is false
/// when not known (a read then answers).
struct SQLiteFootprints {
    /// What a total counts.
    enum Kind {
        case history, replies
    }

    /// What the store holds of a session's versions.
    struct Versions {
        /// Its latest version: that of its newest history entry, or its row's when it has none.
        var latest: Int
        /// Whether the store holds the latest version's document (a delta may build on it); false when not known.
        var latestHasDocument: Bool
        /// No history entry of the session has a lower version (pruning up to below it deletes nothing).
        var floor: Int
    }

    private struct Footprint {
        var history: Int?
        var replies: Int?
        var versions: Versions?
    }

    private var sessions: [String: Footprint] = [:]
    /// Sessions tracked at most; past it the table starts again empty (what it held is read back when next needed).
    private let capacity = 200_000

    /// The bytes of `kind` session `id` keeps; nil when not known.
    func bytes(_ kind: Kind, of id: String) -> Int? {
        switch kind {
        case .history: sessions[id]?.history
        case .replies: sessions[id]?.replies
        }
    }

    /// Records the bytes of `kind` session `id` keeps, as read from the store.
    mutating func set(_ kind: Kind, _ bytes: Int, of id: String) {
        update(id) { footprint in
            switch kind {
            case .history: footprint.history = bytes
            case .replies: footprint.replies = bytes
            }
        }
    }

    /// Adds (or, negative, takes away) bytes of a known total; an unknown one stays unknown.
    mutating func add(_ kind: Kind, _ bytes: Int, to id: String) {
        switch kind {
        case .history: sessions[id]?.history? += bytes
        case .replies: sessions[id]?.replies? += bytes
        }
    }

    /// What the store holds of session `id`'s versions; nil when not known.
    func versions(of id: String) -> Versions? { sessions[id]?.versions }

    /// Records what the store holds of session `id`'s versions, as read or as just written.
    mutating func setVersions(_ versions: Versions, of id: String) {
        update(id) { $0.versions = versions }
    }

    /// The entries up to `version` were deleted: none is left below `version + 1`.
    mutating func entriesDeleted(through version: Int, of id: String) {
        if let floor = sessions[id]?.versions?.floor { sessions[id]?.versions?.floor = max(floor, version + 1) }
    }

    /// Forgets session `id` (removed, or its writes rolled back): what it keeps is read again when next needed.
    mutating func forget(_ id: String) {
        sessions[id] = nil
    }

    /// Another connection wrote the store: nothing known may still hold.
    mutating func forgetAll() {
        sessions.removeAll(keepingCapacity: true)
    }

    private mutating func update(_ id: String, _ change: (inout Footprint) -> Void) {
        if sessions.count >= capacity, sessions[id] == nil { sessions.removeAll(keepingCapacity: true) }
        change(&sessions[id, default: Footprint()])
    }
}
