import Foundation
import SwitchyardSessions
import Synchronization

/// Whether every page of the store reads back as SQLite wrote it (`PRAGMA quick_check`).
///
/// A store up to ``SQLiteSessionArchive/startCheckBytes`` is checked before it opens, and a damaged one is refused.
/// A larger one is checked on a thread of its own after the store opened (about 2 s per 400 MB here), so that a
/// restart still answers at once; if it is damaged, the store turns read-only (no change can spread the damage)
/// and says so in its condition.
final class SQLiteIntegrity: Sendable {
    private let damage = Mutex<String?>(nil)

    /// What is damaged, once a check found it; nil while none did.
    var damaged: String? { damage.withLock { $0 } }

    /// Checks the store at `path` on a thread of its own, with a connection of its own.
    func checkInBackground(_ path: String) {
        let thread = Thread { [self] in
            do throws(ArchiveError) {
                let connection: SQLiteConnection
                do throws(SQLiteError) {
                    connection = try SQLiteConnection(path: path, readOnly: true)
                    try connection.execute("PRAGMA busy_timeout = 5000")
                } catch {
                    throw error.archiveError
                }
                try SQLiteSchema.check(connection)
            } catch {
                damage.withLock { $0 = "\(error)" }
            }
        }
        thread.name = "switchyard.sqlite-check"
        thread.start()
    }
}
