import HTTPTestSupport
import Logging
import MicroHTTP
import Testing

@Suite("Access log and redaction")
struct AccessLogTests {
    @Test("One line per request with method, redacted target, status, bytes and duration")
    func accessLine() throws {
        let lines = Recorder<String>()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }
        try withServer(logger: logger, handle: { _ in .json(201, Array("{\"ok\":1}".utf8)) }) { server in
            let connection = try RawConnection(port: server.port)
            _ = try connection.request("GET", "/api/x?token=abc123&page=2&Password=hunter2")
            #expect(
                eventually {
                    lines.values.contains { $0.contains("GET /api/x?token=REDACTED&page=2&Password=REDACTED 201 8B ") }
                })
        }
        #expect(!lines.values.contains { $0.contains("abc123") || $0.contains("hunter2") })
        #expect(lines.values.contains { $0.hasPrefix("info GET /api/x") && $0.hasSuffix("ms") })
    }

    @Test("A custom redaction closure is used")
    func customRedaction() throws {
        let lines = Recorder<String>()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }
        let configuration = testConfiguration { $0.redactPath = { _ in "/[hidden]" } }
        try withServer(configuration, logger: logger, handle: { _ in HTTPResponse(status: 204) }) { server in
            _ = try RawConnection(port: server.port).request("GET", "/users/alice/secret")
            #expect(eventually { lines.values.contains { $0.contains("GET /[hidden] 204 0B") } })
        }
        #expect(!lines.values.contains { $0.contains("alice") })
    }

    @Test(
        "The default redaction hides the values of parameters whose names hold token, key, secret, password, …",
        arguments: [
            ("/a", "/a"), ("/a?x=1", "/a?x=1"), ("/a?token=t", "/a?token=REDACTED"),
            ("/a?key=k&x=1&secret=s", "/a?key=REDACTED&x=1&secret=REDACTED"),
            ("/a?password=p&session=s", "/a?password=REDACTED&session=REDACTED"),
            ("/a?TOKEN=t&tokens=t2&page=keep", "/a?TOKEN=REDACTED&tokens=REDACTED&page=keep"), ("/a?token", "/a?token"),
            ("/a?access_token=t&admin_token=u", "/a?access_token=REDACTED&admin_token=REDACTED"),
            (
                "/a?apiKey=k&client_secret=s&Authorization=b",
                "/a?apiKey=REDACTED&client_secret=REDACTED&Authorization=REDACTED"
            ),
            ("/a?to%6Ben=t", "/a?to%6Ben=REDACTED"),
        ])
    func defaultRedaction(input: String, expected: String) {
        #expect(HTTPServerConfiguration.redactSecrets(input) == expected)
        #expect(HTTPServerConfiguration().redactPath(input) == expected)
    }
}
