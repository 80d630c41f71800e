import Switchyard
import Synchronization

/// Bounds the memory that the sessions' kept screen renderings (``ScreenRenderings``) take together.
///
/// Each session's engine keeps the renderings of its last document, so that its next change writes again only the
/// screens that changed. The session tells the budget after each turn under its lock that wrote a document (a
/// change, a read that rendered one, a creation), once the lock is released (``account(_:)``): the budget reads
/// what the renderings hold then, and nothing calls it from inside the engine. Past
/// ``maxBytes``, the renderings of the sessions whose documents were written longest ago are dropped: such a session renders
/// every screen for its next document, as without renderings, and keeps them again from then on. The budget holds
/// renderings weakly: a session that leaves memory frees them with its engine, and they leave the count the next
/// time it is read or the budget is over.
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
        /// The clock at the last sweep: over the budget, a sweep comes at most once per as many uses as there
        /// are entries (amortized O(1) per change).
        var swept = 0
    }

    private struct Entry {
        /// Weak: an engine that left memory frees its renderings, and the entry leaves at the next sweep.
        weak var renderings: ScreenRenderings?
        var bytes: Int
        var stamp: Int
    }

    package init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    /// About how many bytes the kept renderings hold now (those freed since the last sweep leave first).
    package var bytes: Int {
        state.withLock { state in
            Self.sweep(&state)
            return state.bytes
        }
    }

    /// How many renderings are counted, and how many uses the list holds (for tests: both stay bounded).
    package var bookkeeping: (renderings: Int, uses: Int) {
        state.withLock { state in
            Self.sweep(&state)
            return (state.entries.count, state.uses.count)
        }
    }

    /// Renderings for a new engine, within this budget; nil when it keeps none.
    package func makeRenderings() -> ScreenRenderings? {
        maxBytes > 0 ? ScreenRenderings() : nil
    }

    /// After a document was written into `renderings` (or they were dropped): they become the most recent, and the
    /// oldest go while the total is over. Renderings that hold nothing are not counted at all. Call it without the session's lock.
    package func account(_ renderings: ScreenRenderings) {
        let id = ObjectIdentifier(renderings)
        let dropped = state.withLock { state in
            // Read under this lock: two accounts of the same renderings are counted in order.
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
            if state.bytes > maxBytes, state.clock - state.swept > state.entries.count { Self.sweep(&state) }
            let dropped = Self.dropOldest(&state, over: maxBytes)
            Self.compact(&state)
            return dropped
        }
        // Outside the budget's lock: each set of renderings has its own.
        for renderings in dropped { renderings.removeAll() }
    }

    /// Forgets the renderings freed with their engines.
    private static func sweep(_ state: inout State) {
        state.swept = state.clock
        for (id, entry) in state.entries where entry.renderings == nil {
            state.entries[id] = nil
            state.bytes -= entry.bytes
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
