internal import CZlib

/// A 64-bit checksum of bytes: zlib's Adler-32 and CRC-32 side by side. It tells whether two documents differ (a
/// store compares the one a delta was made against with the one it holds); it is no defence against bytes made to
/// collide.
public enum Checksum {
    /// The checksum of `bytes`.
    public static func of(_ bytes: [UInt8]) -> Int64 {
        bytes.withUnsafeBufferPointer { buffer in
            let adler = adler32(1, buffer.baseAddress, UInt32(buffer.count))
            let crc = crc32(0, buffer.baseAddress, UInt32(buffer.count))
            return Int64(bitPattern: UInt64(adler & 0xFFFF_FFFF) << 32 | UInt64(crc & 0xFFFF_FFFF))
        }
    }
}
