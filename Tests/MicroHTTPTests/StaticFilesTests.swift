import Foundation
import MicroHTTP
import Testing

/// A temporary site: `root/` with files, a secret next to it, and a symlink pointing out.
struct TemporarySite {
    let base: URL
    var root: String { base.appendingPathComponent("public").path }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("microhttp-\(UUID().uuidString)")
        let files = [
            "public/index.html": "<h1>home</h1>", "public/css/app.css": "body{}", "public/js/app.js": "let a = 1",
            "public/data.json": "{}", "public/docs/index.html": "<h1>docs</h1>", "public/.env": "SECRET=1",
            "public/a b.txt": "spaced", "secret.txt": "top secret",
        ]
        for (path, text) in files {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createSymbolicLink(
            atPath: base.appendingPathComponent("public/escape.txt").path,
            withDestinationPath: base.appendingPathComponent("secret.txt").path)
        try FileManager.default.createSymbolicLink(
            atPath: base.appendingPathComponent("public/up").path, withDestinationPath: base.path)
    }

    func remove() { try? FileManager.default.removeItem(at: base) }

    /// A handler serving the site, 404 otherwise.
    func handler() throws -> @Sendable (HTTPRequest) throws -> HTTPResponse {
        let files = try StaticFiles(root: root)
        return { request in
            files.response(for: request) ?? .problem(status: 404, title: "Not Found", detail: "No such file.")
        }
    }
}

@Suite("Static files")
struct StaticFilesTests {
    @Test("Files are served with their content type; / and folders serve index.html")
    func serving() throws {
        let site = try TemporarySite()
        defer { site.remove() }
        try withServer(handle: site.handler()) { server in
            let connection = try RawConnection(port: server.port)
            let expectations: [(String, String, String)] = [
                ("/", "text/html; charset=utf-8", "<h1>home</h1>"),
                ("/index.html", "text/html; charset=utf-8", "<h1>home</h1>"),
                ("/css/app.css", "text/css; charset=utf-8", "body{}"),
                ("/js/app.js", "text/javascript; charset=utf-8", "let a = 1"),
                ("/data.json", "application/json", "{}"),
                ("/docs/", "text/html; charset=utf-8", "<h1>docs</h1>"),
                ("/docs", "text/html; charset=utf-8", "<h1>docs</h1>"),
                ("/a%20b.txt", "text/plain; charset=utf-8", "spaced"),
            ]
            for (path, type, body) in expectations {
                let response = try connection.request("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.headers["Content-Type"] == type, "\(path)")
                #expect(response.text == body, "\(path)")
                #expect(response.headers["ETag"] != nil)
            }
        }
    }

    @Test("A matching If-None-Match gets 304 without a body")
    func notModified() throws {
        let site = try TemporarySite()
        defer { site.remove() }
        try withServer(handle: site.handler()) { server in
            let connection = try RawConnection(port: server.port)
            let first = try connection.request("GET", "/css/app.css")
            let etag = try #require(first.headers["ETag"])
            let second = try connection.request("GET", "/css/app.css", headers: ["If-None-Match: \(etag)"])
            #expect(second.status == 304)
            #expect(second.body.isEmpty)
            #expect(second.headers["ETag"] == etag)
            let other = try connection.request("GET", "/css/app.css", headers: ["If-None-Match: \"nope\""])
            #expect(other.status == 200)
        }
    }

    @Test(
        "Traversal attempts are 404",
        arguments: [
            "/../secret.txt", "/css/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt",
            "/css%2f..%2f..%2fsecret.txt", "/..%2fsecret.txt", "/escape.txt", "/up/secret.txt", "/.env",
            "/css/..%5c..%5csecret.txt", "/nothing-here.txt", "/index.html%00.txt",
        ])
    func traversal(path: String) throws {
        let site = try TemporarySite()
        defer { site.remove() }
        try withServer(handle: site.handler()) { server in
            let response = try RawConnection(port: server.port).request("GET", path)
            #expect(response.status == 404, "\(path)")
            #expect(!response.text.contains("top secret"))
        }
    }

    @Test("Only GET and HEAD are served; a missing root throws")
    func methodsAndRoot() throws {
        let site = try TemporarySite()
        defer { site.remove() }
        let files = try StaticFiles(root: site.root)
        #expect(files.response(for: HTTPRequest(method: "POST", path: "/")) == nil)
        #expect(files.response(for: HTTPRequest(method: "HEAD", path: "/"))?.status == 200)
        #expect(throws: StaticFiles.Failure.self) { try StaticFiles(root: site.root + "/missing") }
    }
}
