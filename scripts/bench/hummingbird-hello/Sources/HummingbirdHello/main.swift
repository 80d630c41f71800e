// Hummingbird 2's hello world (a router with one GET route answering a short text), listening on 127.0.0.1 and
// the port given as the first argument (0: a free one). Prints "listening on port N" once it accepts connections,
// the line scripts/bench.sh waits for.
import Hummingbird
import Logging

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 0
let router = Router()
router.get("/") { _, _ in "Hello, world!" }
var logger = Logger(label: "hummingbird-hello")
logger.logLevel = .warning
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    onServerRunning: { channel in
        print("listening on port \(channel.localAddress?.port ?? 0)")
    },
    logger: logger
)
try await app.runService()
