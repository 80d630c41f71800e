// The one-call command line of docs/serving-your-own-app.md, compiled here (see
// Tests/SwitchyardTests/DocSnippetCheckTests.swift). Examples/Hello's main.swift is the same call, run by make test.
// The doc shows the two regions joined: a whole main.swift of a package of your own.

// snippet: serving-command-line-program
// Sources/MyServer/main.swift: a whole program, one screen (Examples/Hello's two files add routes and a deep link)
import Switchyard
import SwitchyardCommandLine

final class HelloCoordinator: NavigationCoordinatable {
    let stack = NavigationStack(initial: \HelloCoordinator.start)
    @Root var start = makeStart

    func makeStart() -> ScreenContent { ScreenContent(title: "Hello", content: [.text("Served by Switchyard.")]) }
}
// end snippet

/// The one-call command line: not run either (it parses this process's arguments and exits).
func oneCallCommandLineSample() {
    // snippet: serving-command-line
    let app = NavigationApp(name: "hello", root: { HelloCoordinator() })
    SwitchyardCommandLine.main(apps: [app])  // `swift run MyServer serve --port 9000`, `swift run MyServer --help`
    // end snippet
}
