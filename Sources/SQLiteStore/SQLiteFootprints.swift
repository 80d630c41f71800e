/// What the sessions a writer changed keep in the store (bytes of history and of replies), so that checking a
/// change against ``SwitchyardServer/StoreLimits`` costs no read: a session's total is read once (after a restart,
/// or after a failed commit made it unknown) and then kept up to date by each write's own sizes.
///
/// An estimate on the safe side: a write that replaces a row (a reply stored again, a state rewritten in place)
/// only adds, so a total may run high, never low; trimming reads the real sizes.
struct SQLiteFootprints {
    /// What a total counts.
    enum Kind {
        case history, replies
    }

    private var sessions: [String: [Kind: Int]] = [:]
    /// Sessions tracked at most; past it the table starts again empty (totals are read back when next needed).
    private let capacity = 200_000

    /// The bytes of `kind` session `id` keeps; nil when not known.
    func bytes(_ kind: Kind, of id: String) -> Int? { sessions[id]?[kind] }

    mutating func set(_ kind: Kind, _ bytes: Int, of id: String) {
        if sessions.count >= capacity, sessions[id] == nil { sessions.removeAll(keepingCapacity: true) }
        sessions[id, default: [:]][kind] = bytes
    }

    /// Adds (or, negative, takes away) bytes of a known total; an unknown one stays unknown.
    mutating func add(_ kind: Kind, _ bytes: Int, to id: String) {
        sessions[id]?[kind]? += bytes
    }

    mutating func forget(_ id: String) {
        sessions[id] = nil
    }
}
