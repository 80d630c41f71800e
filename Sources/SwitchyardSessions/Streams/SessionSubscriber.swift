/// Where a session's new versions go: one event stream of the front end (for HTTP, a Server-Sent Events stream).
///
/// Every subscriber first gets the whole state document, then each new version as the ``StreamUpdates`` it chose.
/// Calls come under the session's lock, so they must not block or call back into the session.
package protocol SessionSubscriber: AnyObject, Sendable {
    /// How it takes changes.
    var updates: StreamUpdates { get }
    /// Sends a frame; false once the subscriber is gone (it is then dropped).
    func send(_ frame: StreamFrame) -> Bool
    /// Sends `patch`, or `state` instead when the subscriber fell behind; false once it is gone.
    func send(_ patch: StreamFrame, orWhenBehind state: @autoclosure () -> StreamFrame) -> Bool
    /// Ends the subscription (the session ended or left memory).
    func close()
}
