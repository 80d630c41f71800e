import SwitchyardSessions
import Synchronization

/// Keeps a database that stopped answering from holding every worker thread: once a call ran out of time, one
/// call at a time (a probe) may wait for the database, and the others fail at once with
/// ``SwitchyardServer/ArchiveError/unavailable(_:)``; the first call that gets an answer closes the breaker again.
///
/// Without it, a frozen server (a hung host, `kill -STOP`, a silent partition) costs every request the whole
/// timeout, and once every worker waits, even `/healthz` waits behind them.
final class PostgresBreaker: Sendable {
    /// How a call passed the breaker.
    enum Pass: Equatable {
        /// The database answers as far as is known.
        case normal
        /// The database did not answer lately: this call finds out whether it does again.
        case probe
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
    }

    private let state = Mutex(State())

    /// Why the database counts as not answering now; nil while it answers.
    var silence: String? { state.withLock { $0.silent } }

    /// Lets a call through, as a probe while the database is silent; throws when another call is probing.
    func enter() throws(ArchiveError) -> Pass {
        try state.withLock { state throws(ArchiveError) in
            guard let silent = state.silent else { return .normal }
            guard !state.probing else {
                throw .unavailable("\(silent); one request at a time checks whether it answers again")
            }
            state.probing = true
            return .probe
        }
    }

    /// Records what became of a call that ``enter()`` let through.
    func leave(_ pass: Pass, _ outcome: Outcome) {
        state.withLock { state in
            if pass == .probe { state.probing = false }
            switch outcome {
            case .answered: state.silent = nil
            case .timedOut(let reason): state.silent = reason
            case .failed: break
            }
        }
    }
}
