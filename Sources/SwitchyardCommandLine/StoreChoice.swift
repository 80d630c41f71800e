import ArgumentParser
import Foundation
import PostgresStore
import SQLiteStore
import SwitchyardServer
import SwitchyardSessions

/// Where sessions live: in a SQLite file (they survive restarts and crashes), in a PostgreSQL database several
/// nodes share, or in memory only.
enum StoreChoice {
    case sqlite(folder: String, durability: SQLiteSessionArchive.Durability, maxBytes: Int?, limits: StoreLimits)
    /// `connections`: nil for the thread count.
    case postgres(url: String, connections: Int?, limits: StoreLimits, timeout: Duration)
    case memory(limits: StoreLimits, historyBudget: Int)
}

extension Settings {
    /// The database file inside the data folder.
    static let databaseName = "switchyard.sqlite"

    /// Opens the configured store: creates the data folder on first run, then opens (or creates) the database.
    /// - Throws: a message naming the folder or file and what is wrong with it.
    func openStore() throws -> any SessionArchive {
        switch store {
        case .memory(let limits, let historyBudget):
            return MemorySessionArchive(limits: limits, historyBudget: historyBudget)
        case .postgres(let url, let connections, let limits, let timeout):
            do {
                return try PostgresSessionArchive(
                    url: url, connections: connections ?? threads, limits: limits, timeout: timeout)
            } catch .unreadable(let reason) {
                throw StoreOpenError(message: "the database \(Self.redacted(url)) cannot be used: \(reason)")
            } catch {
                throw StoreOpenError(message: "cannot open the database \(Self.redacted(url)): \(error)")
            }
        case .sqlite(let folder, let durability, let maxBytes, let limits):
            return try Self.openSQLite(folder: folder, durability: durability, maxBytes: maxBytes, limits: limits)
        }
    }

    private static func openSQLite(
        folder: String, durability: SQLiteSessionArchive.Durability, maxBytes: Int?, limits: StoreLimits
    ) throws -> any SessionArchive {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreOpenError(message: "cannot create the data folder '\(folder)': \(Self.reason(error))")
        }
        if let refusal = unwritableFolder(folder) { throw StoreOpenError(message: refusal) }
        let path = (folder as NSString).appendingPathComponent(Self.databaseName)
        do {
            return try SQLiteSessionArchive(path: path, durability: durability, maxBytes: maxBytes, limits: limits)
        } catch .unreadable(let reason) {
            throw StoreOpenError(
                message: "the session store '\(path)' cannot be read: \(reason); move it aside to start empty")
        } catch {
            throw StoreOpenError(message: "cannot open the session store '\(path)': \(error) (is the folder writable?)")
        }
    }

    /// Why this process cannot write in the data folder `folder`, naming who it runs as and who owns the folder (a
    /// host folder mounted into a container is often another user's), or nil when it can.
    static func unwritableFolder(_ folder: String) -> String? {
        guard access(folder, W_OK | X_OK) != 0 else { return nil }
        if errno == EROFS { return "the data folder '\(folder)' is on a read-only file system: mount a writable one" }
        var info = stat()
        let owner =
            stat(folder, &info) == 0
            ? "it belongs to uid \(info.st_uid), gid \(info.st_gid), mode \(String(info.st_mode & 0o7777, radix: 8))"
            : "it cannot be examined"
        return "the data folder '\(folder)' is not writable by this process (uid \(getuid()), gid \(getgid())): "
            + "\(owner); make it writable for uid \(getuid()) (chown \(getuid()) on it) or choose another one (--data)"
    }

    /// `sqlite data/switchyard.sqlite (durability process)` or `memory`.
    var storeDescription: String {
        switch store {
        case .sqlite(let folder, let durability, _, _):
            "sqlite \((folder as NSString).appendingPathComponent(Self.databaseName)) (durability \(durability.rawValue))"
        case .postgres(let url, _, _, _): "postgres \(Self.redacted(url))"
        case .memory: "memory"
        }
    }

    /// A database URL without its password, for logs: `postgresql://user:secret@host/db` → `postgresql://user:***@host/db`.
    static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].lastIndex(of: "@"),
            let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at...])
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// Why the store could not be opened: one line for the log.
struct StoreOpenError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
