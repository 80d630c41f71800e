/// A screen or coordinator that gives a value back to the coordinator that opened it: "pick a todo", "choose a
/// colour", "sign the terms".
///
/// The route that opens it knows the type, so the opener's handler is checked at compile time, and a result sent by
/// name (the `finish` step's JSON `result`) is decoded as this type or refused (422 `invalidResult`).
///
/// ```swift
/// struct PickFavouriteScreen: Screen, ProducesResult {
///     typealias ResultValue = String  // a todo id
///     …
/// }
/// ```
public protocol ProducesResult {
    /// The type of the value it finishes with.
    associatedtype ResultValue: Codable & Sendable
}
