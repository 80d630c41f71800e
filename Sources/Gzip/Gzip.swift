internal import CZlib

/// gzip (RFC 1952) compression with zlib: the only module that touches zlib's pointers.
public enum Gzip {
    /// `bytes` compressed as one gzip member at `level` (1 fastest … 9 smallest); nil if zlib fails.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound is enough for one call with Z_FINISH; the gzip header and trailer add 18 bytes.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 18)
        let (result, left) = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let result = deflate(&stream, Z_FINISH)
                return (result, Int(stream.avail_out))
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeLast(left)
        return output
    }

    /// The bytes of a gzip stream, at most `limit` of them; nil if it is not gzip, is damaged, or is larger.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init_gzip(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                let (result, produced) = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    let result = inflate(&stream, Z_NO_FLUSH)
                    return (result, out.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[..<produced])
                guard output.count <= limit else { return nil }
                if result == Z_STREAM_END { return output }
                guard result == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
