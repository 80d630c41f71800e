/// What the sessions a writer changed keep in the store (bytes of history and of replies), so that checking a
/// change against ``SwitchyardServer/StoreLimits`` costs no read: a session's total is read once (after a restart,
/// or after a failed commit made it unknown) and then kept up to date by each write's own sizes.
///
/// An estimate on the safe side: a write that replaces a row (a reply stored again, a state rewritten in place)
/// only adds, so a total may run high, never low; trimming reads the real sizes.
struct SQLiteFootprints {
    private struct Footprint {
        var history: Int?
        var replies: Int?
    }

    private var sessions: [String: Footprint] = [:]
    /// Sessions tracked at most; past it the table starts again empty (totals are read back when next needed).
    private let capacity = 200_000

    func history(of id: String) -> Int? { sessions[id]?.history }
    func replies(of id: String) -> Int? { sessions[id]?.replies }

    mutating func set(history bytes: Int, of id: String) {
        makeRoom(for: id)
        sessions[id, default: Footprint()].history = bytes
    }

    mutating func set(replies bytes: Int, of id: String) {
        makeRoom(for: id)
        sessions[id, default: Footprint()].replies = bytes
    }

    mutating func added(history bytes: Int, to id: String) {
        sessions[id]?.history? += bytes
    }

    mutating func added(reply bytes: Int, to id: String) {
        sessions[id]?.replies? += bytes
    }

    mutating func removed(history bytes: Int, of id: String) {
        sessions[id]?.history? -= bytes
    }

    mutating func removed(reply bytes: Int, of id: String) {
        sessions[id]?.replies? -= bytes
    }

    mutating func forget(_ id: String) {
        sessions[id] = nil
    }

    private mutating func makeRoom(for id: String) {
        if sessions.count >= capacity, sessions[id] == nil { sessions.removeAll(keepingCapacity: true) }
    }
}
