internal import CZlib

/// The one-shot loops over a zlib stream that ``Gzip`` and ``DeflateDelta`` share; the caller sets the stream up
/// (and ends it).
enum ZStream {
    /// `bytes` compressed in one call on a stream set up for deflating; nil if zlib fails. `extra`: room beyond
    /// `deflateBound` (a gzip header and trailer).
    static func deflateAll(_ stream: inout z_stream, _ bytes: [UInt8], extra: Int = 0) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + extra)
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

    /// The bytes `bytes` inflate to on a stream set up for inflating, at most `limit` of them; nil if the stream is
    /// damaged, larger, or asks for a dictionary other than `dictionary` (zlib checks its checksum).
    static func inflateAll(
        _ stream: inout z_stream, _ bytes: [UInt8], limit: Int, dictionary: ArraySlice<UInt8>? = nil
    ) -> [UInt8]? {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        var dictionaryGiven = false
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
                if result == Z_NEED_DICT {
                    guard let dictionary, !dictionaryGiven else { return nil }
                    dictionaryGiven = true
                    let set = dictionary.withUnsafeBufferPointer { words in
                        inflateSetDictionary(&stream, words.baseAddress, UInt32(words.count))
                    }
                    guard set == Z_OK else { return nil }
                    continue
                }
                output.append(contentsOf: chunk[..<produced])
                guard output.count <= limit else { return nil }
                if result == Z_STREAM_END { return output }
                guard result == Z_OK, produced > 0 || stream.avail_in > 0 else { return nil }
            }
        }
    }
}
