import Synchronization

/// The screens' renderings an engine keeps between its state documents, so that a screen that did not change is
/// neither rendered nor written again.
///
/// Give an engine one (``NavigationEngine/screenRenderings``) and each state document reuses the JSON of every
/// screen whose ``Screen/contentRevision`` is the one it had in the last document; a screen without a revision is
/// rendered and written for every document, as without renderings. The document is byte for byte the one written
/// without renderings. Only the screens of the last document are kept: an item that left the tree leaves its
/// rendering. A transaction that is rolled back after its commit check wrote a document, or a restore, drops them
/// all (item ids may be given again then); a rendering is only ever reused by the engine that wrote it, in the
/// same stretch between such events, so renderings moved to another engine are written again, never shown stale.
///
/// The renderings are safe to read and drop from any thread (``bytes``, ``removeAll()``): that is how an owner
/// bounds the memory many engines' renderings take together, reading their size after each change. Nothing is
/// called back. An engine without renderings (the default) keeps nothing.
public final class ScreenRenderings: Sendable {
    private let state = Mutex(State())

    private struct State {
        var entries: [ItemID: ScreenRendering] = [:]
        var bytes = 0
    }

    /// Creates an empty set of renderings.
    public init() {}

    /// About how many bytes the kept renderings hold.
    public var bytes: Int {
        state.withLock { $0.bytes }
    }

    /// How many screens' renderings are kept.
    public var count: Int {
        state.withLock { $0.entries.count }
    }

    /// Drops every rendering: the next document renders and writes every screen. Safe from any thread.
    public func removeAll() {
        state.withLock { state in
            state.entries = [:]
            state.bytes = 0
        }
    }

    /// The renderings as they are now, for one document to read.
    var entries: [ItemID: ScreenRendering] {
        state.withLock { $0.entries }
    }

    /// Keeps exactly `entries` (the screens of the document just written).
    func replace(with entries: [ItemID: ScreenRendering]) {
        let bytes = entries.values.reduce(0) { $0 + $1.bytes }
        state.withLock { state in
            state.entries = entries
            state.bytes = bytes
        }
    }
}

/// One screen's JSON as a document last wrote it, with the revision it was written at.
struct ScreenRendering: Sendable {
    /// The engine's rendering epoch it was written in (``NavigationEngine/renderingEpoch``): reused only in it.
    let epoch: Int
    /// The coordinator whose entry the item is (its actions name it).
    let owner: NodeID
    /// The screen's ``Screen/contentRevision`` when it was rendered.
    let revision: Int
    /// The screen's JSON object.
    let json: [UInt8]

    /// About how many bytes it holds.
    var bytes: Int { json.count + 64 }
}
