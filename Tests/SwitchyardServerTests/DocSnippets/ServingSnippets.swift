// The sample of docs/serving-your-own-app.md, compiled here (see Tests/SwitchyardTests/DocSnippetCheckTests.swift).
// It is not run: it would serve on port 8080 until SIGTERM. Examples/Hello runs the same calls in `make test`.

// snippet: serving-imports
import Switchyard
import SwitchyardServer
// end snippet

func servingYourOwnAppSample() throws {
    // snippet: serving
    let app = NavigationApp(name: "hello", root: { HelloCoordinator() })
    let server = try NavigationServer(apps: [app], port: 8080, page: "Public")  // page: this repository's Public/
    try server.start()
    server.waitForTermination()  // until SIGTERM or SIGINT, then a graceful stop
    // end snippet
}
