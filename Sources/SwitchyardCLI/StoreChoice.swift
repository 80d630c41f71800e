import ArgumentParser
import Foundation
import SQLiteStore
import SwitchyardServer

/// Where sessions live: in a SQLite file (they survive restarts and crashes) or in memory only.
enum StoreChoice {
    case sqlite(folder: String, durability: SQLiteSessionArchive.Durability, maxBytes: Int?, historyRetention: Int?)
    case memory
}

extension Settings {
    /// The database file inside the data folder.
    static let databaseName = "switchyard.sqlite"

    /// Opens the configured store: creates the data folder on first run, then opens (or creates) the database.
    /// - Throws: a message naming the folder or file and what is wrong with it.
    func openStore() throws -> SQLiteSessionArchive? {
        guard case .sqlite(let folder, let durability, let maxBytes, let retention) = store else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreOpenError(message: "cannot create the data folder '\(folder)': \(Self.reason(error))")
        }
        let path = (folder as NSString).appendingPathComponent(Self.databaseName)
        do {
            return try SQLiteSessionArchive(
                path: path, durability: durability, maxBytes: maxBytes, historyRetention: retention)
        } catch .unreadable(let reason) {
            throw StoreOpenError(
                message: "the session store '\(path)' cannot be read: \(reason); move it aside to start empty")
        } catch {
            throw StoreOpenError(message: "cannot open the session store '\(path)': \(error) (is the folder writable?)")
        }
    }

    /// `sqlite data/switchyard.sqlite (durability process)` or `memory`.
    var storeDescription: String {
        switch store {
        case .sqlite(let folder, let durability, _, _):
            "sqlite \((folder as NSString).appendingPathComponent(Self.databaseName)) (durability \(durability.rawValue))"
        case .memory: "memory"
        }
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
