import ArgumentParser
import Logging

/// `--log-level`: the least severe log lines written.
struct LogLevelArgument: CheckedArgument, Equatable {
    /// The level.
    let level: Logger.Level

    /// A default written in the code: `.init(.info)`.
    init(_ level: Logger.Level) { self.level = level }

    /// Reads a level's name, in any case: `trace` … `critical`.
    init(checking text: String) throws(ArgumentRequirement) {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ArgumentRequirement(text: "must be one of \(names)")
        }
        self.level = level
    }

    /// The level's name.
    var defaultValueDescription: String { level.rawValue }

    /// Every level's name, for `--help`.
    static var allValueStrings: [String] { Logger.Level.allCases.map(\.rawValue) }
}
