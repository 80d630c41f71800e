/// Told when an event stream parks (suspends) its connection and when it wakes it again, so that the
/// server can watch parked connections, which libmicrohttpd itself no longer polls.
///
/// Both calls happen under the stream's lock, while the connection is suspended: its socket is open
/// and belongs to it for the whole call.
protocol ConnectionParking: Sendable {
    /// `stream` has just suspended `connection`.
    func parked(_ stream: EventStream, connection: OpaquePointer)
    /// `stream` is about to resume `connection` (or its request ended while parked).
    func resuming(_ stream: EventStream, connection: OpaquePointer)
}
