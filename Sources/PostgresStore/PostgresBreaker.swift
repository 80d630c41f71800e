import SwitchyardSessions
import Synchronization

/// Keeps a database that stopped answering from holding every worker thread: one call at a time (a probe) may
/// wait for it, and the others fail at once with ``SwitchyardServer/ArchiveError/unavailable(_:)``; the first call
/// that gets an answer closes the breaker again.
///
/// It opens as soon as the database looks silent, not only once a call ran out of time: when a call in flight has
/// waited ``suspectAfter`` (a fifth of the timeout: 1 s of the default 5 s) and no call got an answer meanwhile, new
/// calls no longer join it. So a freeze holds only the calls that began in its first second, each for at most the timeout, and a
/// request whose call ran out of time is not kept waiting a second timeout by its next call: after a timeout a probe
/// is allowed only once ``suspectAfter`` has passed.
///
/// Without it, a frozen server (a hung host, `kill -STOP`, a silent partition) costs every request the whole
/// timeout, and once every worker waits, even `/healthz` waits behind them.
final class PostgresBreaker: Sendable {
    /// How a call passed the breaker.
    struct Pass: Equatable {
        enum Kind: Equatable {
            /// The database answers as far as is known.
            case normal
            /// The database did not answer lately: this call finds out whether it does again.
            case probe
        }

        let kind: Kind
        fileprivate let ticket: UInt64
    }

    /// What became of a call.
    enum Outcome {
        /// The database answered (with rows or with a refusal).
        case answered
        /// It did not answer in time.
        case timedOut(String)
        /// It failed otherwise (a connection refused): no news about a hang.
        case failed
    }

    private struct State {
        /// Why the database counts as not answering; nil while it answers.
        var silent: String?
        var probing = false
        /// When the last probe ended or the last call ran out of time: the next probe waits ``suspectAfter``.
        var lastSilence: ContinuousClock.Instant?
        /// The calls waiting for the database now, with when they began.
        var waiting: [UInt64: ContinuousClock.Instant] = [:]
        /// When a call last got an answer.
        var answered: ContinuousClock.Instant?
        var nextTicket: UInt64 = 0
    }

    private let state = Mutex(State())
    /// How long a call may wait without an answer before the database counts as silent for the calls after it.
    let suspectAfter: Duration

    /// A breaker for calls that end within `timeout`.
    init(timeout: Duration) {
        suspectAfter = timeout / 5
    }

    /// Why the database counts as not answering now; nil while it answers.
    var silence: String? { state.withLock { $0.silent } }

    /// Lets a call through, as a probe while the database is silent; throws when another call is probing, when a
    /// probe is not due yet, or when a call in flight has waited ``suspectAfter`` for an answer.
    func enter(now: ContinuousClock.Instant = .now) throws(ArchiveError) -> Pass {
        try state.withLock { state throws(ArchiveError) in
            // Silent: a call has waited that long, and no call got an answer meanwhile (one slow statement among
            // answered ones is not a silent database).
            if state.silent == nil, let oldest = state.waiting.values.min(), oldest.duration(to: now) >= suspectAfter,
                state.answered.map({ $0.duration(to: now) >= suspectAfter }) ?? true
            {
                state.silent = "the database has not answered a call for \(Self.seconds(oldest.duration(to: now)))"
                state.lastSilence = nil
            }
            state.nextTicket += 1
            let ticket = state.nextTicket
            guard let silent = state.silent else {
                state.waiting[ticket] = now
                return Pass(kind: .normal, ticket: ticket)
            }
            guard !state.probing, state.lastSilence.map({ $0.duration(to: now) >= suspectAfter }) ?? true else {
                throw .unavailable("\(silent); one request at a time checks whether it answers again")
            }
            state.probing = true
            state.waiting[ticket] = now
            return Pass(kind: .probe, ticket: ticket)
        }
    }

    /// Records what became of a call that ``enter(now:)`` let through.
    func leave(_ pass: Pass, _ outcome: Outcome, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            state.waiting[pass.ticket] = nil
            if pass.kind == .probe { state.probing = false }
            switch outcome {
            case .answered:
                state.silent = nil
                state.lastSilence = nil
                state.answered = now
            case .timedOut(let reason):
                state.silent = reason
                state.lastSilence = now
            case .failed:
                if pass.kind == .probe { state.lastSilence = now }
            }
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = Int(seconds) * 10 + Int(attoseconds / 100_000_000_000_000_000)
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
