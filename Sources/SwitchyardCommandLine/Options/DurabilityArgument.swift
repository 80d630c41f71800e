import ArgumentParser
import SQLiteStore

/// `--durability`: what a change acknowledged by the SQLite store survives.
enum DurabilityArgument: String, CaseIterable, CheckedArgument {
    /// A crash of the process.
    case process
    /// A power loss too.
    case machine

    /// The store's setting.
    var durability: SQLiteSessionArchive.Durability {
        switch self {
        case .process: .process
        case .machine: .machine
        }
    }
}
