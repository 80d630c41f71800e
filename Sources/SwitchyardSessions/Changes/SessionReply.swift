/// An answer as the front end rendered it (for HTTP: status, headers, body), kept to replay to a retried request
/// under the same idempotency key. The session layer stores and returns it without reading it.
package struct SessionReply: Sendable {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Whether it says the request succeeded (a status under 300).
    package var isSuccess: Bool { status < 300 }

}
