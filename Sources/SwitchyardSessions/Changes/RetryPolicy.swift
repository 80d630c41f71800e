#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many times the session layer runs a request again when its session changed under it (another node stored a
/// version first, the copy in memory ended, a migration raced a change), and how it pauses in between: the one
/// retry policy of the layer (the change pipeline, a session read back, a stored session migrated).
package struct RetryPolicy: Sendable {
    /// Runs at most this many times.
    package let attempts: Int

    /// 16 runs: with nodes racing for one session, or a burst of reloads ending copies in a row on a loaded
    /// machine, one of them gets through well within it; a bound stays, so that nothing holds a request forever.
    package static let standard = RetryPolicy(attempts: 16)

    package init(attempts: Int) {
        self.attempts = attempts
    }

    /// Pauses before run `attempt` (counted from 0): not before the first two; then a random pause (without any
    /// lock, so that the node's other requests go on), longer each time, so that one of the racers gets through.
    func pause(before attempt: Int) {
        guard attempt > 1 else { return }
        usleep(UInt32.random(in: 0...UInt32(500 * attempt)))
    }
}
