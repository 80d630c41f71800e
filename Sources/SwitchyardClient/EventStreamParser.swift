/// Reads a `text/event-stream` as it arrives, in chunks cut anywhere (mid-line, mid-character), into events:
/// lines end with LF, CR or CRLF; a blank line ends an event; `:` lines are comments (heartbeats); `retry:` sets
/// the reconnection delay. An event without data is dropped, as the format says.
public struct EventStreamParser: Sendable {
    private var line: [UInt8] = []
    private var afterCR = false
    private var type = ""
    private var data: [String] = []
    private var hasData = false
    private var id: String?
    /// The last `retry:` value, in milliseconds.
    public private(set) var retryMilliseconds: Int?

    /// A parser at the start of a stream.
    public init() {}

    /// The events `bytes` completes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where afterCR:
                afterCR = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                afterCR = false
                line.append(byte)
            }
        }
        return events
    }

    /// Handles the line read; the event it ends, if it is blank and data came.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(":") { return nil }
        let (field, value): (Substring, Substring)
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            let rest = text[text.index(after: colon)...]
            value = rest.hasPrefix(" ") ? rest.dropFirst() : rest
        } else {
            (field, value) = (text[...], "")
        }
        switch field {
        case "event": type = String(value)
        case "data":
            data.append(String(value))
            hasData = true
        case "id" where !value.contains("\0"): id = String(value)
        case "retry": if let milliseconds = Int(value), milliseconds >= 0 { retryMilliseconds = milliseconds }
        default: break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            type = ""
            data = []
            hasData = false
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"), id: id)
    }
}
