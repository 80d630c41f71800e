import Switchyard
import Synchronization

/// What the running program serves and calls itself, set once by ``SwitchyardCommandLine/main(apps:name:version:)``
/// before the arguments are parsed (the commands are made by the argument parser, which passes nothing in).
struct CommandLineProgram: Sendable {
    /// The apps `serve` serves; the first is the default.
    var apps: [NavigationApp]
    /// The command's name in help and logs.
    var name: String
    /// What `--version` prints.
    var version: String

    private static let shared = Mutex(CommandLineProgram(apps: [], name: "switchyard", version: "0.1.0"))

    /// The program as set.
    static var current: CommandLineProgram {
        shared.withLock { $0 }
    }

    /// Sets the program (once, before parsing).
    static func set(_ program: CommandLineProgram) {
        shared.withLock { $0 = program }
    }
}
