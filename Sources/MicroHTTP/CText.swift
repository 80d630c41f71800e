/// Conversions from C character buffers.
enum CText {
    /// The NUL-terminated text at the start of `buffer` (invalid UTF-8 repaired).
    static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
