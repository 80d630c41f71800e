internal import CZlib

/// gzip (RFC 1952) compression with zlib: the only module that touches zlib's pointers.
public enum Gzip {
    /// `bytes` compressed as one gzip member at `level` (1 fastest … 9 smallest); nil if zlib fails.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound is enough for one call with Z_FINISH; the gzip header and trailer add 18 bytes.
        return ZStream.deflateAll(&stream, bytes, extra: 18)
    }

    /// The bytes of a gzip stream, at most `limit` of them; nil if it is not gzip, is damaged, or is larger.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        return ZStream.inflateAll(&stream, bytes, limit: limit)
    }
}
