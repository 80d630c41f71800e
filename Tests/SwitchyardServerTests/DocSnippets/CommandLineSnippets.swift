// The one-call command line of docs/serving-your-own-app.md, compiled here (see
// Tests/SwitchyardTests/DocSnippetCheckTests.swift). Examples/Hello's main.swift is the same call, run by make test.
import Switchyard
import SwitchyardCommandLine
import TodoDemo

/// The one-call command line: not run either (it parses this process's arguments and exits).
func oneCallCommandLineSample() {
    // snippet: serving-command-line
    // Sources/MyServer/main.swift
    // import SwitchyardCommandLine
    let app = NavigationApp(name: "todos", root: { AppCoordinator() }, deepLinks: AppCoordinator.deepLinks)
    SwitchyardCommandLine.main(apps: [app])  // `MyServer serve --port 9000 --database-url …`, `MyServer --help`
    // end snippet
}
