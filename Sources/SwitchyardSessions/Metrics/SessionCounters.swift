import Switchyard
import Synchronization

/// What the session layer counts, for the server's metrics: live sessions, changes, streams, and the store.
package final class SessionCounters: Sendable {
    /// The counts at one moment.
    package struct Counts: Sendable {
        package var sessions = 0
        package var transitions = 0
        package var rejected = 0
        package var subscribers = 0
        package var broadcasts = 0
        package var restored = 0
        package var incompatible = 0
        package var caughtUp = 0
        package var conflicts = 0
        package var storeFailures = 0
        /// Stored sessions read back under a newer version (or kept on theirs), by the version they were on.
        package var migrations: [MigrationCount: Int] = [:]
        /// Change requests answered (transitions, events, deep links, restores), by app version and whether they
        /// were accepted.
        package var changes: [ChangeCount: Int] = [:]
    }

    /// What became of a stored session a newer version was offered to.
    package enum MigrationOutcome: String, Sendable, CaseIterable {
        /// It migrated (stored as a new version of the session).
        case migrated
        /// It stayed on its version: the migration could not take it.
        case pinned
        /// Its version was retired and no migration took it: it started over on the fallback version.
        case restarted
    }

    /// The key of a change count.
    package struct ChangeCount: Sendable, Hashable, Comparable {
        package let app: AppVersion
        package let accepted: Bool

        package static func < (lhs: ChangeCount, rhs: ChangeCount) -> Bool {
            (lhs.app, lhs.accepted ? 0 : 1) < (rhs.app, rhs.accepted ? 0 : 1)
        }
    }

    /// The key of a migration count.
    package struct MigrationCount: Sendable, Hashable, Comparable {
        package let from: AppVersion
        package let outcome: MigrationOutcome

        package static func < (lhs: MigrationCount, rhs: MigrationCount) -> Bool {
            (lhs.from, lhs.outcome.rawValue) < (rhs.from, rhs.outcome.rawValue)
        }
    }

    private let counts = Mutex(Counts())

    package init() {}

    /// The counts now.
    package var current: Counts { counts.withLock { $0 } }

    func setSessions(_ count: Int) {
        counts.withLock { $0.sessions = count }
    }

    /// A transition request committed (or was refused).
    func countTransition(accepted: Bool) {
        counts.withLock { counts in
            if accepted { counts.transitions += 1 } else { counts.rejected += 1 }
        }
    }

    /// Streams opened (+1) or closed (-1).
    package func addSubscribers(_ delta: Int) {
        counts.withLock { $0.subscribers += delta }
    }

    /// A new version went to the session's streams.
    func countBroadcast() {
        counts.withLock { $0.broadcasts += 1 }
    }

    /// A stored session was read back into memory.
    func countRestored() {
        counts.withLock { $0.restored += 1 }
    }

    /// A stored session no longer fits the app.
    func countIncompatible() {
        counts.withLock { $0.incompatible += 1 }
    }

    /// A copy in memory took a version another node stored.
    func countCaughtUp() {
        counts.withLock { $0.caughtUp += 1 }
    }

    /// A change found the session changed elsewhere and ran again.
    func countConflict() {
        counts.withLock { $0.conflicts += 1 }
    }

    /// A stored session of `version` was offered a newer version: `outcome` is what became of it.
    func countMigration(of version: AppVersion, outcome: MigrationOutcome) {
        counts.withLock { $0.migrations[MigrationCount(from: version, outcome: outcome), default: 0] += 1 }
    }

    /// A change request to a session of `version` was answered (`accepted`: with a 2xx).
    func countChange(of version: AppVersion, accepted: Bool) {
        counts.withLock { $0.changes[ChangeCount(app: version, accepted: accepted), default: 0] += 1 }
    }

    /// A write or read of the store failed.
    func countStoreFailure() {
        counts.withLock { $0.storeFailures += 1 }
    }
}
