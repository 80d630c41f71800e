import MicroHTTP
import Testing

@Suite("Headers and request targets")
struct ParsingTests {
    @Test("HTTPHeaders: case-insensitive lookup, repeated names kept")
    func headers() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add(name: "x-a", value: "2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers["x-a"] == "1, 2")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        #expect(headers["missing"] == nil)
        #expect(headers.count == 3)
        #expect(headers.map(\.name) == ["Content-Type", "X-A", "x-a"])
        headers.replaceOrAdd(name: "X-A", value: "3")
        #expect(headers.values(for: "x-a") == ["3"])
        headers.remove(name: "content-type")
        #expect(!headers.contains("Content-Type"))
    }

    @Test("HTTPRequest(target:) decodes the path and query")
    func target() {
        let request = HTTPRequest(method: "GET", target: "/a%20b/%E2%9C%93?q=x+y&z=%26&q=last&flag")
        #expect(request.path == "/a b/✓")
        #expect(request.rawPath == "/a%20b/%E2%9C%93")
        #expect(request.query == ["q": "last", "z": "&", "flag": ""])
        let plain = HTTPRequest(method: "GET", target: "/plain+path")
        #expect(plain.path == "/plain+path")
        #expect(plain.query.isEmpty)
        let broken = HTTPRequest(method: "GET", target: "/bad%zz%4")
        #expect(broken.path == "/bad%zz%4")
    }

    @Test("Response helpers set their content types")
    func responseHelpers() {
        #expect(HTTPResponse.json(200, []).header("Content-Type") == "application/json")
        #expect(HTTPResponse.text(200, "hi").header("content-type") == "text/plain; charset=utf-8")
        let stream = HTTPResponse.eventStream(headers: [("X-Extra", "1")]) { _ in }
        #expect(stream.header("Content-Type") == "text/event-stream")
        #expect(stream.header("Cache-Control") == "no-store")
        #expect(stream.header("X-Accel-Buffering") == "no")
        #expect(stream.header("X-Extra") == "1")
        if case .stream = stream.body {} else { Issue.record("expected a stream body") }
    }
}
