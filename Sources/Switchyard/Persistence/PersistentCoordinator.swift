/// A coordinator that holds data of its own beyond the routes it took (a model, a counter), saved with the session
/// and given back when the session is restored.
///
/// The engine restores the tree by replaying routes through the coordinators' factories; what a coordinator keeps
/// in its own properties is not part of the tree, so without this a restored session would lose it. Adopt this
/// protocol and expose that data as one `Codable` value:
///
/// ```swift
/// final class HomeCoordinator: NavigationCoordinatable, PersistentCoordinator {
///     private(set) var refreshes = 0
///     var persistentState: Int {
///         get { refreshes }
///         set { refreshes = newValue }
///     }
/// }
/// ```
///
/// ``NavigationEngine/restoreDocument()`` writes the value under the node's `data` member; restoring sets it once,
/// after the tree is rebuilt and before any hook runs or any screen renders. Data that conforms to ``EncodesLike``
/// is encoded again only when it changed: every change writes a restore document, and most leave the data as it
/// was. Data that several coordinators share
/// (one model object) should be saved by exactly one of them, usually the one that owns it.
public protocol PersistentCoordinator: Coordinatable {
    /// The coordinator's own data, as a value.
    associatedtype PersistentState: Codable

    /// Read when the session is saved; set when it is restored.
    var persistentState: PersistentState { get set }
}

extension PersistentCoordinator {
    /// The data as JSON, for the restore document.
    func savedState() throws -> JSONValue {
        try JSONValue(encoding: persistentState)
    }

    /// Reads data from a restore document and returns what puts it back: decoding can fail, putting back cannot,
    /// so a restore decodes every coordinator's data before it changes any.
    func decodedState(_ value: JSONValue) throws -> () -> Void {
        let state = try value.decode(PersistentState.self)
        return { self.persistentState = state }
    }
}
