import ArgumentParser
import Switchyard
import SwitchyardExplorer

/// `explore`: explores every path of apps through the engine (no server, no store) and reports the routes reached
/// with a shortest way to each, the traps and the routes never entered (errors: exit 1), events never accepted and
/// deep links failing everywhere (warnings).
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Explore every path of apps through the engine: routes reached, traps, routes never entered.",
        discussion:
            "Exits 1 when it finds a trap or a route never entered, 2 when an app cannot be explored. docs/testing-your-app.md"
    )

    @Argument(help: "App definitions (JSON or YAML), folders of them, or names of apps built in (default: those).")
    var apps: [String] = []

    @OptionGroup var limits: ExplorationOptions

    @Flag(help: "Print the report as JSON.")
    var json = false

    mutating func run() throws {
        let apps = try ExploredApps.resolve(self.apps)
        var reports: [ExplorationReport] = []
        for app in apps {
            do {
                reports.append(ExplorationReport(try AppExplorer(app: app, limits: limits.value).explore()))
            } catch {
                ExploredApps.printError("\(app.identity) cannot be explored: its first state fails: \(error)")
                throw ExitCode(2)
            }
        }
        if json {
            let value = reports.count == 1 ? reports[0].json : .array(reports.map(\.json))
            print(String(decoding: value.serialized(), as: UTF8.self))
        } else {
            print(reports.map(\.text).joined(separator: "\n\n"))
        }
        if reports.contains(where: \.hasErrors) { throw ExitCode(1) }
    }
}

/// The bounds of an exploration, shared by `explore` and `paths`.
struct ExplorationOptions: ParsableArguments {
    @Option(help: "The most states kept.")
    var maxStates = 20_000

    @Option(help: "The most actions from the start a state is explored at.")
    var maxDepth = 40

    @Option(help: "The most seconds an exploration runs.")
    var timeLimit = 60.0

    func validate() throws {
        guard maxStates >= 1, maxDepth >= 1, timeLimit > 0 else {
            throw ValidationError("--max-states and --max-depth are at least 1, --time-limit more than 0")
        }
    }

    var value: ExplorationLimits {
        ExplorationLimits(states: maxStates, depth: maxDepth, seconds: timeLimit)
    }
}
