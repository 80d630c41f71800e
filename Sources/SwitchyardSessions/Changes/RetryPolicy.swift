#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many times the session layer runs a request again when its session changed under it (another node stored a
/// version first, a migration raced a change, the copy in memory ended), and how it pauses in between: the one
/// retry policy of the layer (the change pipeline, reads, a session read back, a stored session migrated).
package struct RetryPolicy: Sendable {
    /// Runs at most this many times when other nodes keep changing the session first.
    package let attempts: Int
    /// Runs at most this many times when the copy in memory keeps leaving memory while the request waits for it
    /// (each run waits behind the requests already queued on the copy read back, so on a loaded machine a burst of
    /// reloads can end several copies in a row).
    package let readBacks: Int

    /// 16 runs against racing nodes, 8 against copies leaving memory: one of them gets through well within it; a
    /// bound stays, so that nothing holds a request forever.
    package static let standard = RetryPolicy(attempts: 16, readBacks: 8)

    package init(attempts: Int, readBacks: Int) {
        self.attempts = attempts
        self.readBacks = readBacks
    }

    /// Pauses before run `attempt` (counted from 0): not before the first two; then a random pause (without any
    /// lock, so that the node's other requests go on), longer each time, so that one of the racers gets through.
    func pause(before attempt: Int) {
        guard attempt > 1 else { return }
        usleep(UInt32.random(in: 0...UInt32(500 * attempt)))
    }
}
