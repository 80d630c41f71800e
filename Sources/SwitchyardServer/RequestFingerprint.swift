import MicroHTTP

/// What identifies a request for idempotency: a retry has the same fingerprint, a different request under the
/// same `Idempotency-Key` (almost surely) not. FNV-1a over method, path, `If-Match` and body.
enum RequestFingerprint {
    static func of(_ request: HTTPRequest) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0100_0000_01b3
            }
            hash ^= 0xff
            hash &*= 0x0100_0000_01b3
        }
        mix(request.method.utf8)
        mix(request.path.utf8)
        mix((request.headers["if-match"] ?? "").utf8)
        mix(request.body)
        return hash
    }
}
