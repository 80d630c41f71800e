import ArgumentParser
import Foundation
import Switchyard
import SwitchyardDefinitions

/// The apps `explore` and `paths` work on: definition files or folders given, each checked first (a file with an
/// error is reported as `check` reports it, and nothing is explored), or names of apps built into this program;
/// with none, every app built in. One that cannot be resolved is said on standard error, and the command exits 2.
enum ExploredApps {
    static func resolve(_ arguments: [String]) throws(ExitCode) -> [NavigationApp] {
        do {
            return try apps(arguments)
        } catch {
            printError("\(error)")
            throw ExitCode(2)
        }
    }

    private static func apps(_ arguments: [String]) throws -> [NavigationApp] {
        let builtIn = CommandLineProgram.current.apps
        guard !arguments.isEmpty else { return builtIn }
        var apps: [NavigationApp] = []
        for argument in arguments {
            if !FileManager.default.fileExists(atPath: argument),
                let app = builtIn.first(where: { $0.name == argument })
            {
                apps.append(app)
                continue
            }
            let definitions = DefinitionFiles(paths: [argument])
            for (_, line) in definitions.lines { printError(line) }
            guard !definitions.hasErrors else {
                throw ValidationError(
                    "\(argument) does not pass `check` (above); an app is explored once it does "
                        + "(built-in apps: \(builtIn.map(\.name).joined(separator: ", ")))")
            }
            apps += definitions.apps
        }
        return apps
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
