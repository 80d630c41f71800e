import Switchyard
import SwitchyardCommandLine

// hello://greet/<name> pushes a greeting.
let links = DeepLinkRouter<GreetingCoordinator>()
    .route("hello://greet/:name", examples: ["hello://greet/Ada"]) { root, link in
        try root.popToRoot().route(to: \.greeting, try link.string("name"))
        return .opened
    }
let app = NavigationApp(name: "hello", root: { GreetingCoordinator() }, deepLinks: links)

// Everything `switchyard` has: `serve` with every flag and environment variable, SQLite by default (in data/),
// PostgreSQL with --database-url, logs, graceful stops, the web page. `swift run Hello`, or `Hello --help`.
SwitchyardCommandLine.main(apps: [app], name: "hello")
