// MicroHTTPHello: the HTTP transport alone, for benchmarks (scripts/bench-http.sh).
//   MicroHTTPHello [--host 127.0.0.1] [--port 0] [--threads N] [--log-level notice]
// Prints "listening on port N" on stdout once ready; exits 0 on SIGTERM/SIGINT.
import Foundation
import Logging
import MicroHTTP

var configuration = HTTPServerConfiguration()
configuration.port = 8080
var logLevel = Logger.Level.notice
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    let value = arguments.next() ?? ""
    switch argument {
    case "--host": configuration.host = value
    case "--port": configuration.port = UInt16(value) ?? 8080
    case "--threads": configuration.threads = Int(value) ?? configuration.threads
    case "--log-level": logLevel = Logger.Level(rawValue: value) ?? .notice
    default:
        FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
        exit(2)
    }
}
let level = logLevel
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = level
    return handler
}
let server = HTTPServer(configuration: configuration, handler: HelloHandler(), logger: Logger(label: "hello"))
do {
    try server.start()
} catch {
    FileHandle.standardError.write(Data("MicroHTTPHello: \(error)\n".utf8))
    exit(1)
}
FileHandle.standardOutput.write(Data("listening on port \(server.port)\n".utf8))
server.waitForTermination()
