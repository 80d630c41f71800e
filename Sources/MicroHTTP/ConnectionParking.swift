/// Told when an event stream parks (suspends) its connection, and when its request ends, so that the server can
/// watch parked connections, which libmicrohttpd itself no longer polls.
///
/// Both calls happen under the stream's lock while the connection's socket is open and belongs to it.
protocol ConnectionParking: Sendable {
    /// `stream` has just suspended `connection`. Returns false when its client has hung up already (while the
    /// stream was busy): the stream then ends the connection itself.
    func parked(_ stream: EventStream, connection: OpaquePointer) -> Bool
    /// `stream`'s request ended: its socket is watched no more.
    func ended(_ stream: EventStream)
}
