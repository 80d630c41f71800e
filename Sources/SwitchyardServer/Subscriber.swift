import MicroHTTP

/// One stream following a session, and how it takes changes.
struct Subscriber {
    let stream: EventStream
    let updates: StreamUpdates
}
