import MicroHTTP

/// What an `Idempotency-Key` may be: 1 to ``maxBytes`` visible ASCII characters. Keys are remembered per session, so
/// their size is bounded like everything else a client makes the server keep.
enum IdempotencyKey {
    /// The longest key accepted.
    static let maxBytes = 255

    /// Throws 400 `invalidIdempotencyKey` for a key that is empty, too long or has other characters.
    static func check(_ request: HTTPRequest) throws {
        guard let key = request.headers["idempotency-key"] else { return }
        let bytes = key.utf8
        guard bytes.isEmpty || bytes.count > maxBytes || !bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return
        }
        throw Problem(
            status: 400, code: "invalidIdempotencyKey", title: "Invalid request",
            detail: "an Idempotency-Key is 1 to \(maxBytes) visible ASCII characters, such as a UUID")
    }
}
