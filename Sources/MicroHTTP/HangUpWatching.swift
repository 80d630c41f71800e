/// Told when an event stream's response begins and when its request ends, so that the server can watch the stream's
/// socket for its client hanging up: libmicrohttpd polls no parked (suspended) connection, and one that is blocked
/// writing to a client that reads no more does not read, so neither notices a client's FIN.
///
/// Both calls happen under the stream's lock while the connection's socket is open and belongs to it.
protocol HangUpWatching: Sendable {
    /// Watches `socket`, the connection of `stream`, until ``ended(_:)``: when its client hangs up (FIN or reset),
    /// the watcher calls ``EventStream/clientHungUp()``, which may come at once (the client is gone already).
    func watch(_ stream: EventStream, socket: Int32)
    /// `stream`'s request ended: its socket is watched no more.
    func ended(_ stream: EventStream)
}
