import Foundation
import Gzip
import MicroHTTP
import Testing

/// gzip for clients that accept it: static files compressed once per version, with their own entity tag.
@Suite("Content coding")
struct ContentCodingTests {
    private func request(_ path: String, _ headers: [(String, String)] = []) -> HTTPRequest {
        HTTPRequest(method: "GET", target: path, headers: HTTPHeaders([("Host", "x")] + headers), body: [])
    }

    private func header(_ response: HTTPResponse, _ name: String) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    private func body(_ response: HTTPResponse) -> [UInt8] {
        if case .bytes(let bytes) = response.body { return bytes }
        return []
    }

    @Test func gzipRoundTripsAndOtherToolsReadIt() throws {
        let text = Array(String(repeating: "switchyard navigation state ", count: 400).utf8)
        let packed = try #require(Gzip.compress(text))
        #expect(packed.starts(with: [0x1f, 0x8b]), "the gzip magic")
        #expect(packed.count < text.count / 10)
        #expect(Gzip.decompress(packed) == text)
        #expect(Gzip.decompress(Array(packed.dropLast(4))) == nil, "a truncated stream is refused")
        #expect(Gzip.decompress(text) == nil, "not gzip")
        // The system's gzip reads it too.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cc-\(UUID().uuidString).gz")
        try Data(packed).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(Array(output) == text)
    }

    @Test(arguments: [
        ("gzip", true), ("gzip, deflate, br", true), ("deflate, gzip;q=0.5", true), ("GZIP", true),
        ("x-gzip", true), ("*", true), ("gzip;q=0", false), ("*;q=0", false), ("deflate", false), ("", false),
        ("br, *;q=0.1", true), ("gzip; q=0.000", false),
    ])
    func acceptEncodingIsRead(header: String, accepts: Bool) {
        #expect(ContentCoding.acceptsGzip(request("/", [("Accept-Encoding", header)])) == accepts)
    }

    @Test func aStaticFileIsSentCompressedWithItsOwnTagAndRevalidates() throws {
        let site = try TemporarySite()
        defer { site.remove() }
        let script = String(repeating: "console.log('switchyard');\n", count: 100)
        try Data(script.utf8).write(to: URL(fileURLWithPath: site.root + "/js/big.js"))
        let files = try StaticFiles(root: site.root)
        let plain = try #require(files.response(for: request("/js/big.js")))
        let packed = try #require(files.response(for: request("/js/big.js", [("Accept-Encoding", "gzip")])))
        #expect(header(plain, "Content-Encoding") == nil)
        #expect(header(plain, "Vary") == "Accept-Encoding")
        #expect(body(plain) == Array(script.utf8))
        #expect(header(packed, "Content-Encoding") == "gzip")
        #expect(header(packed, "Vary") == "Accept-Encoding")
        #expect(Gzip.decompress(body(packed)) == Array(script.utf8))
        let tag = try #require(header(packed, "ETag"))
        #expect(tag != header(plain, "ETag"))
        #expect(tag.hasSuffix("-gz\""))
        let again = try #require(
            files.response(for: request("/js/big.js", [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])))
        #expect(again.status == 304)
        // The identity tag does not validate the gzip representation.
        let other = try #require(
            files.response(
                for: request(
                    "/js/big.js", [("Accept-Encoding", "gzip"), ("If-None-Match", header(plain, "ETag") ?? "")])))
        #expect(other.status == 200)
    }

    @Test func smallFilesAndImagesAreSentAsTheyAre() throws {
        let site = try TemporarySite()
        defer { site.remove() }
        let files = try StaticFiles(root: site.root)
        let small = try #require(files.response(for: request("/css/app.css", [("Accept-Encoding", "gzip")])))
        #expect(header(small, "Content-Encoding") == nil)
        #expect(header(small, "Vary") == nil)
    }
}
