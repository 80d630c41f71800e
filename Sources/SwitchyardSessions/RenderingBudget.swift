import Switchyard
import Synchronization

/// Bounds the memory that the sessions' kept screen renderings (``ScreenRenderings``) take together.
///
/// Each session's engine keeps the renderings of its last document, so that its next change writes again only the
/// screens that changed. Past ``maxBytes``, the renderings of the sessions whose documents were written longest ago
/// are dropped: such a session renders every screen for its next document, as without renderings, and keeps them
/// again from then on. A session that leaves memory frees its renderings with its engine, and they leave the count.
package final class RenderingBudget: Sendable {
    /// The most bytes all kept renderings may hold; 0 keeps none.
    package let maxBytes: Int
    private let state = Mutex(State())

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Uses in order, oldest first from `head`; a use whose stamp is not its entry's was followed by another.
        var uses: [(id: ObjectIdentifier, stamp: Int)] = []
        var head = 0
        var clock = 0
        var bytes = 0
    }

    private struct Entry {
        /// Weak: an engine that left memory frees its renderings (which then leave, ``released(_:)``).
        weak var renderings: ScreenRenderings?
        var bytes: Int
        var stamp: Int
    }

    package init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// About how many bytes the kept renderings hold now.
    package var bytes: Int {
        state.withLock { $0.bytes }
    }

    /// How many renderings are counted, and how many uses the list holds (for tests: both stay bounded).
    package var bookkeeping: (renderings: Int, uses: Int) {
        state.withLock { ($0.entries.count, $0.uses.count) }
    }

    /// Renderings for a new engine, within this budget; nil when it keeps none.
    package func makeRenderings() -> ScreenRenderings? {
        guard maxBytes > 0 else { return nil }
        return ScreenRenderings(
            onUpdate: { [weak self] renderings in self?.used(renderings) },
            onRelease: { [weak self] id in self?.released(id) })
    }

    /// `renderings` were just replaced (or dropped): they become the most recent, and the oldest go while the total
    /// is over. Renderings that hold nothing are not counted at all.
    private func used(_ renderings: ScreenRenderings) {
        let id = ObjectIdentifier(renderings)
        let dropped = state.withLock { state in
            // Read under this lock: a drop by another thread and a replace by the engine's are counted in order.
            // (The renderings' own lock is never held while they call here, so the two locks never cross.)
            let bytes = renderings.bytes
            state.bytes -= state.entries[id]?.bytes ?? 0
            guard bytes > 0 else {
                state.entries[id] = nil
                return [ScreenRenderings]()
            }
            state.clock += 1
            state.bytes += bytes
            state.entries[id] = Entry(renderings: renderings, bytes: bytes, stamp: state.clock)
            state.uses.append((id, state.clock))
            let dropped = Self.dropOldest(&state, over: maxBytes)
            Self.compact(&state)
            return dropped
        }
        // Outside the budget's lock: each set of renderings has its own.
        for renderings in dropped { renderings.removeAll() }
    }

    /// Renderings freed with their engine: their bytes are no longer held.
    private func released(_ id: ObjectIdentifier) {
        state.withLock { state in
            if let entry = state.entries.removeValue(forKey: id) { state.bytes -= entry.bytes }
        }
    }

    private static func dropOldest(_ state: inout State, over maxBytes: Int) -> [ScreenRenderings] {
        var dropped: [ScreenRenderings] = []
        while state.bytes > maxBytes, state.head < state.uses.count {
            let (id, stamp) = state.uses[state.head]
            state.head += 1
            guard let entry = state.entries[id], entry.stamp == stamp else { continue }
            state.entries[id] = nil
            state.bytes -= entry.bytes
            if let renderings = entry.renderings { dropped.append(renderings) }
        }
        return dropped
    }

    /// Forgets the uses already dropped, and those that a later use of the same renderings replaced, once they are
    /// most of the list.
    private static func compact(_ state: inout State) {
        let waiting = state.uses.count - state.head
        guard waiting > 2 * state.entries.count + 64 || state.head > max(64, waiting) else { return }
        let entries = state.entries
        state.uses = state.uses[state.head...].filter { entries[$0.id]?.stamp == $0.stamp }
        state.head = 0
    }
}
