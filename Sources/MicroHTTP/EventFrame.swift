/// One Server-Sent Events event, encoded once as UTF-8 bytes and shareable across many streams.
///
/// Encode an event once and pass the frame to ``EventStream/send(_:)`` of every subscriber: the
/// encoded bytes are shared (copy-on-write), so fanning one event out to many streams neither
/// re-encodes nor copies it per stream.
///
/// ```swift
/// let frame = EventFrame(id: "42", event: "state", data: document)
/// for stream in subscribers { stream.send(frame) }
/// ```
public struct EventFrame: Sendable, Hashable {
    /// The encoded event, exactly as written to the stream (ending with the blank line that
    /// dispatches it).
    public let bytes: [UInt8]

    /// What the event is to a stream that falls behind (see ``Role``).
    public let role: Role

    /// What an event is to a stream whose client has fallen behind (a quarter of its backlog limit queued, at most
    /// 256 KiB): a client that reads slower than states change gets the latest state instead of a growing backlog of
    /// old ones. A client that keeps up gets every event.
    public enum Role: Sendable, Hashable {
        /// An event of its own: always delivered.
        case event
        /// A whole state that makes earlier ones obsolete: sent to a stream that fell behind, it replaces every
        /// snapshot and delta still queued there that the client has not begun to receive.
        case snapshot
        /// A change to the state sent before it (a JSON Patch, say): a later snapshot replaces it while unsent, and
        /// ``EventStream/send(_:orWhenBehind:)`` sends the snapshot instead of it to a stream that fell behind.
        case delta
    }

    /// Whether the event is a whole state (``Role/snapshot``).
    public var isSnapshot: Bool { role == .snapshot }

    /// Encodes one event: an `id:` and an `event:` line when given (CR and LF removed from them),
    /// then one `data:` line per line of `data` — a line ends at LF, CRLF or CR, as in the SSE
    /// specification — and the blank line that ends the event.
    ///
    /// Empty `data` is sent as one empty `data:` line. Data without line breaks (compact JSON, say)
    /// takes a fast path: the frame is the header lines, `data: `, the data's bytes and `\n\n`.
    /// `role`: see ``Role``.
    public init(id: String?, event: String?, data: String, role: Role = .event) {
        self.role = role
        var bytes: [UInt8] = []
        if let id { Self.appendField("id: ", id, to: &bytes) }
        if let event { Self.appendField("event: ", event, to: &bytes) }
        var data = data
        data.makeContiguousUTF8()
        data.utf8.withContiguousStorageIfAvailable { text in
            bytes.reserveCapacity(bytes.count + text.count + 8)
            if Self.containsLineBreak(text) {
                Self.appendDataLines(text, to: &bytes)
            } else {
                bytes.append(contentsOf: Self.dataPrefix)
                bytes.append(contentsOf: text)
                bytes.append(contentsOf: Self.eventEnd)
            }
        }
        self.bytes = bytes
    }

    /// A comment frame (`: text`), which clients ignore; CR and LF are removed from `text`.
    init(comment text: String) {
        role = .event
        var bytes: [UInt8] = []
        Self.appendField(": ", text, to: &bytes)
        bytes.append(Self.lineFeed)
        self.bytes = bytes
    }

    // MARK: - Private

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let dataPrefix: [UInt8] = Array("data: ".utf8)
    private static let eventEnd: [UInt8] = [lineFeed, lineFeed]

    /// Appends `name`, `value` without CR and LF, and a line feed.
    private static func appendField(_ name: StaticString, _ value: String, to bytes: inout [UInt8]) {
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: value.utf8.lazy.filter { $0 != lineFeed && $0 != carriageReturn })
        bytes.append(lineFeed)
    }

    /// Appends one `data:` line per line of `text` (lines end at LF, CRLF or CR) and the blank line.
    private static func appendDataLines(_ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        var lineStart = 0
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == lineFeed || byte == carriageReturn {
                bytes.append(contentsOf: dataPrefix)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[lineStart..<index]))
                bytes.append(lineFeed)
                if byte == carriageReturn, index + 1 < text.count, text[index + 1] == lineFeed { index += 1 }
                lineStart = index + 1
            }
            index += 1
        }
        bytes.append(contentsOf: dataPrefix)
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[lineStart...]))
        bytes.append(contentsOf: eventEnd)
    }

    /// Whether `text` holds a CR or LF; scans eight bytes at a time.
    private static func containsLineBreak(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(text)
        var index = 0
        while index + 8 <= raw.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if hasByte(word, lineFeed) || hasByte(word, carriageReturn) { return true }
            index += 8
        }
        while index < raw.count {
            if raw[index] == lineFeed || raw[index] == carriageReturn { return true }
            index += 1
        }
        return false
    }

    /// Whether any byte of `word` equals `byte` (the exact "has zero byte" bit trick).
    @inline(__always)
    private static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let masked = word ^ (ones &* UInt64(byte))
        return (masked &- ones) & ~masked & 0x8080_8080_8080_8080 != 0
    }
}
