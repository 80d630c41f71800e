import Foundation
import MicroHTTP
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Requests and keep-alive")
struct RequestTests {
    @Test("A URLSession request sees method, decoded path, raw path, query, headers, body and peer")
    func requestFields() async throws {
        let server = HTTPServer(
            configuration: testConfiguration(), handler: ClosureHTTPHandler(echo), logger: quietLogger)
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/api/a%20b/c?x=1&y=two%20words&x=3")!)
        request.httpMethod = "POST"
        request.httpBody = Data("hello body".utf8)
        request.setValue("yes", forHTTPHeaderField: "X-Test")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["method"] as? String == "POST")
        #expect(object["path"] as? String == "/api/a b/c")
        #expect(object["rawPath"] as? String == "/api/a%20b/c")
        #expect(object["query"] as? [String: String] == ["x": "3", "y": "two words"])
        #expect(object["body"] as? String == "hello body")
        #expect(object["peer"] as? String == "127.0.0.1")
        #expect((object["headers"] as? [String: String])?["x-test"] == "yes")
    }

    @Test("Several requests travel over one keep-alive connection")
    func keepAliveReuse() throws {
        try withServer(handle: echo) { server in
            let connection = try RawConnection(port: server.port)
            for index in 0..<5 {
                let response = try connection.request("GET", "/n/\(index)")
                #expect(response.status == 200)
                #expect(response.headers["Connection"]?.lowercased() != "close")
                #expect(response.json["path"] as? String == "/n/\(index)")
            }
            // Pipelined: two requests in one write, two answers in order.
            try connection.send("GET /p/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /p/2 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().json["path"] as? String == "/p/1")
            #expect(try connection.readResponse().json["path"] as? String == "/p/2")
        }
    }

    @Test("Repeated header names are all kept and looked up case-insensitively")
    func repeatedHeaders() throws {
        let seen = Recorder<[String]>()
        try withServer(
            handle: { request in
                seen.append(request.headers.values(for: "x-multi"))
                return HTTPResponse(status: 204)
            }
        ) { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("GET", "/", headers: ["X-Multi: a", "x-multi: b"])
            #expect(response.status == 204)
        }
        #expect(seen.values == [["a", "b"]])
    }

    @Test("Responses may carry repeated header names")
    func repeatedResponseHeaders() throws {
        try withServer(
            handle: { _ in HTTPResponse(status: 200, headers: [("Set-Cookie", "a=1"), ("Set-Cookie", "b=2")]) }
        ) { server in
            let response = try RawConnection(port: server.port).request("GET", "/")
            #expect(response.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        }
    }

    @Test("HEAD gets the headers without a body")
    func head() throws {
        try withServer(handle: { _ in .json(200, Array("{\"a\":1}".utf8)) }) { server in
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("HEAD", "/")
            #expect(response.status == 200)
            #expect(response.headers["Content-Length"] == "7")
            // The connection is still usable: no body bytes were left behind.
            #expect(try connection.request("GET", "/").text == "{\"a\":1}")
        }
    }

    @Test("An invalid status from the handler becomes a 500 problem")
    func invalidStatus() throws {
        try withServer(handle: { _ in HTTPResponse(status: 42) }) { server in
            let response = try RawConnection(port: server.port).request("GET", "/")
            #expect(response.status == 500)
            #expect(response.headers["Content-Type"] == "application/problem+json")
        }
    }
}
