import Switchyard
import Synchronization

/// Bounds the memory that the sessions' kept screen renderings (``ScreenRenderings``) take together.
///
/// Each session's engine keeps the renderings of its last document, so that its next change writes again only the
/// screens that changed. Past ``maxBytes``, the renderings of the sessions whose documents were written longest ago
/// are dropped: such a session renders every screen for its next document, as without renderings, and keeps them
/// again from then on. A session that leaves memory leaves its renderings with its engine.
final class RenderingBudget: Sendable {
    /// The most bytes all kept renderings may hold; 0 keeps none.
    let maxBytes: Int
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
        /// Weak: an engine that left memory takes its renderings along (its bytes are counted until their turn).
        weak var renderings: ScreenRenderings?
        var bytes: Int
        var stamp: Int
    }

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// About how many bytes the kept renderings hold now.
    var bytes: Int {
        state.withLock { $0.bytes }
    }

    /// Renderings for a new engine, within this budget; nil when it keeps none.
    func makeRenderings() -> ScreenRenderings? {
        guard maxBytes > 0 else { return nil }
        return ScreenRenderings { [weak self] renderings in self?.used(renderings) }
    }

    /// `renderings` were just replaced: they become the most recent, and the oldest go while the total is over.
    private func used(_ renderings: ScreenRenderings) {
        let bytes = renderings.bytes
        let id = ObjectIdentifier(renderings)
        let dropped = state.withLock { state in
            state.clock += 1
            state.bytes += bytes - (state.entries[id]?.bytes ?? 0)
            state.entries[id] = Entry(renderings: renderings, bytes: bytes, stamp: state.clock)
            state.uses.append((id, state.clock))
            let dropped = Self.dropOldest(&state, over: maxBytes)
            Self.compact(&state)
            return dropped
        }
        // Outside the budget's lock: each set of renderings has its own.
        for renderings in dropped { renderings.removeAll() }
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

    /// Forgets the uses that a later use of the same renderings replaced, once they are most of the list.
    private static func compact(_ state: inout State) {
        guard state.uses.count - state.head > 2 * state.entries.count + 64 else { return }
        let entries = state.entries
        state.uses = state.uses[state.head...].filter { entries[$0.id]?.stamp == $0.stamp }
        state.head = 0
    }
}
