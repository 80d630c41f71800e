import Foundation
import Switchyard
import SwitchyardServer

// hello://greet/<name> pushes a greeting.
let links = DeepLinkRouter<GreetingCoordinator>()
    .route("hello://greet/:name") { root, link in
        try root.popToRoot().route(to: \.greeting, try link.string("name"))
        return .opened
    }
let app = NavigationApp(name: "hello", root: { GreetingCoordinator() }, deepLinks: links)

// Usage: Hello [port] [page folder]; port 0 picks a free one.
let arguments = CommandLine.arguments.dropFirst()
let port = arguments.first.flatMap(UInt16.init) ?? 8080
let page = arguments.dropFirst().first ?? "../../Public"
let server = try NavigationServer(apps: [app], port: port, page: page)
try server.start()
FileHandle.standardOutput.write(Data("Hello is serving on http://127.0.0.1:\(server.port)\n".utf8))
exit(server.waitForTermination() ? 0 : 1)
