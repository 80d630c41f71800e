internal import CZlib

/// A delta between two byte strings made with zlib: the new bytes compressed with the old ones as the preset
/// dictionary, so that every run they share costs a back-reference of a few bits.
///
/// Applying it gives the new bytes back exactly (byte for byte, whatever they hold), and checks itself: the zlib
/// stream carries the checksum of the dictionary it was made against and of the bytes it makes, so a delta applied
/// to other bytes, or damaged, gives nil rather than a wrong document. Only the last 32 KiB of the old bytes serve
/// as the dictionary: larger documents still round-trip, with larger deltas.
public enum DeflateDelta {
    /// The delta that turns `base` into `target`; nil if zlib fails.
    public static func make(from base: [UInt8], to target: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // A window just large enough for both (a document and its successor are mostly a few KiB): zlib's default
        // of 32 KiB with 128 KiB of hash tables costs 256 KiB per call, which malloc maps and zeroes afresh each
        // time, more than the compression itself.
        let needed = base.count + target.count
        let windowBits = Int32(min(15, max(9, Int.bitWidth - (needed - 1).leadingZeroBitCount)))
        let memLevel = max(1, min(8, windowBits - 7))
        guard czlib_deflate_init_zlib(&stream, level, windowBits, memLevel) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let set = base.suffix(32 << 10).withUnsafeBufferPointer { dictionary in
            deflateSetDictionary(&stream, dictionary.baseAddress, UInt32(dictionary.count))
        }
        guard set == Z_OK else { return nil }
        return ZStream.deflateAll(&stream, target, extra: 16)
    }

    /// The bytes `delta` makes of `base`, at most `limit` of them; nil if the delta is damaged, was made against
    /// other bytes, or gives more.
    public static func apply(_ delta: [UInt8], to base: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_inflate_init_zlib(&stream) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        // zlib checks that `base` is what the delta was made against (the checksum of its dictionary).
        return ZStream.inflateAll(&stream, delta, limit: limit, dictionary: base.suffix(32 << 10))
    }
}
