import ArgumentParser
import Foundation
import Switchyard

/// The whole command line of a Switchyard server, for your own apps: one call is an executable's `main.swift`.
///
/// It gives the program everything `switchyard` has: `serve` (the default command) with every flag and its
/// environment variable, every store (SQLite by default, in `data/`; PostgreSQL with `--database-url`; memory), log
/// formats and levels, limits, and graceful stops:
///
/// ```swift
/// import SwitchyardCommandLine
///
/// SwitchyardCommandLine.main(apps: [myApp])
/// ```
///
/// `myApp serve --port 9000`, `SWITCHYARD_PORT=9000 myApp` and `myApp --help` then work as they do for `switchyard`.
public enum SwitchyardCommandLine {
    /// Parses the process's arguments and runs the command they name for `apps` (the first is the default app);
    /// exits the process with the command's status. `name` is the program's name in help and logs (default: the
    /// executable's file name); `version` is what `--version` prints.
    public static func main(apps: [NavigationApp], name: String? = nil, version: String = "0.1.0") -> Never {
        guard !apps.isEmpty else {
            FileHandle.standardError.write(Data("SwitchyardCommandLine.main: give at least one app\n".utf8))
            exit(1)
        }
        let executable = CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "switchyard"
        CommandLineProgram.set(CommandLineProgram(apps: apps, name: name ?? executable, version: version))
        SwitchyardCommand.main()
        exit(0)
    }
}
