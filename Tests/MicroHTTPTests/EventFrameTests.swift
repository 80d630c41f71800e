import MicroHTTP
import Testing

@Suite("Event frames")
struct EventFrameTests {
    /// The frame's bytes as text.
    private func text(_ frame: EventFrame) -> String {
        String(decoding: frame.bytes, as: UTF8.self)
    }

    /// A plain reference encoder, one line at a time, per the SSE specification's line endings.
    private func reference(id: String?, event: String?, data: String) -> String {
        var out = ""
        if let id { out += "id: " + id + "\n" }
        if let event { out += "event: " + event + "\n" }
        var line = ""
        var lines: [String] = []
        var previousWasCR = false
        for scalar in data.unicodeScalars {
            if scalar == "\n" && previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                lines.append(line)
                line = ""
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        lines.append(line)
        for line in lines { out += "data: " + line + "\n" }
        return out + "\n"
    }

    @Test("A single-line event: id, event and one data line")
    func singleLine() {
        let frame = EventFrame(id: "7", event: "state", data: #"{"path":"/a","n":1}"#)
        #expect(text(frame) == "id: 7\nevent: state\ndata: {\"path\":\"/a\",\"n\":1}\n\n")
    }

    @Test(
        "Line breaks split data into data lines: LF, CRLF and CR",
        arguments: [
            ("a\nb", "data: a\ndata: b\n\n"),
            ("a\r\nb", "data: a\ndata: b\n\n"),
            ("a\rb", "data: a\ndata: b\n\n"),
            ("a\r\n\r\nb\n\rc", "data: a\ndata: \ndata: b\ndata: \ndata: c\n\n"),
            ("a\n", "data: a\ndata: \n\n"),
            ("\r", "data: \ndata: \n\n"),
            ("\r\n", "data: \ndata: \n\n"),
            ("\n\n", "data: \ndata: \ndata: \n\n"),
        ])
    func multiLine(data: String, expected: String) {
        #expect(text(EventFrame(id: nil, event: nil, data: data)) == expected)
    }

    @Test("Empty data is one empty data line")
    func emptyData() {
        #expect(text(EventFrame(id: nil, event: nil, data: "")) == "data: \n\n")
        #expect(text(EventFrame(id: "1", event: "e", data: "")) == "id: 1\nevent: e\ndata: \n\n")
    }

    @Test("Absent id or event adds no line for it")
    func absentFields() {
        #expect(text(EventFrame(id: nil, event: nil, data: "x")) == "data: x\n\n")
        #expect(text(EventFrame(id: "9", event: nil, data: "x")) == "id: 9\ndata: x\n\n")
        #expect(text(EventFrame(id: nil, event: "tick", data: "x")) == "event: tick\ndata: x\n\n")
    }

    @Test("CR and LF are removed from id and event")
    func singleLineFields() {
        let frame = EventFrame(id: "1\r\n2", event: "a\nb\rc", data: "x")
        #expect(text(frame) == "id: 12\nevent: abc\ndata: x\n\n")
    }

    @Test("Non-ASCII text is kept as UTF-8")
    func unicode() {
        let frame = EventFrame(id: "é", event: "☕️", data: "café 👩‍👩‍👧\r\nß")
        #expect(frame.bytes == Array("id: é\nevent: ☕️\ndata: café 👩‍👩‍👧\ndata: ß\n\n".utf8))
    }

    @Test("A line break at any position of longer data is found (word-at-a-time scan)")
    func breakAtEveryPosition() {
        let base = Array(repeating: "x", count: 37).joined()
        for breakText in ["\n", "\r", "\r\n"] {
            for position in 0...base.count {
                var data = base
                data.insert(contentsOf: breakText, at: data.index(data.startIndex, offsetBy: position))
                let frame = EventFrame(id: "1", event: nil, data: data)
                #expect(text(frame) == reference(id: "1", event: nil, data: data), "break at \(position)")
            }
        }
        // Bytes that differ from CR/LF by one bit, or are CR/LF plus 0x80, are not line breaks.
        let near = String(decoding: [0x0B, 0x0C, 0x0E, 0x08, 0x1A, 0x2A, 0x09, 0x0F], as: UTF8.self) + "é\u{8A}\u{8D}"
        #expect(text(EventFrame(id: nil, event: nil, data: near)) == "data: " + near + "\n\n")
    }

    @Test("Frames with the same event are equal")
    func equality() {
        #expect(EventFrame(id: "1", event: "e", data: "d") == EventFrame(id: "1", event: "e", data: "d"))
        #expect(EventFrame(id: "1", event: "e", data: "d") != EventFrame(id: "2", event: "e", data: "d"))
    }

    @Test("One frame sent to several streams arrives identical on each, in order")
    func fanOut() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            let readers = try (0..<5).map { _ in try EventReader(port: server.port) }
            #expect(eventually { box.streams.values.count == 5 })
            let payload = String(repeating: "{\"k\":\"v\"},", count: 600)  // ~6 KB, no line breaks
            let frames = (0..<30).map { index in
                index % 3 == 2
                    ? EventFrame(id: "\(index)", event: "multi", data: "line \(index)\r\nnext\rlast")
                    : EventFrame(id: "\(index)", event: "state", data: "[\(index),\(payload)]")
            }
            let streams = box.streams.values
            onNewThread {
                for frame in frames {
                    for stream in streams { stream.send(frame) }
                }
            }
            for reader in readers {
                for frame in frames {
                    let block = try #require(try reader.next())
                    #expect(block + "\n\n" == text(frame))
                }
            }
        }
    }

    @Test("Frames, per-stream events and comments keep their order; large frames span several writes")
    func mixedOrder() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            let reader = try EventReader(port: server.port)
            #expect(eventually { box.streams.values.count == 1 })
            let stream = try #require(box.streams.values.first)
            let big = EventFrame(id: "big", event: nil, data: String(repeating: "0123456789", count: 5_000))
            onNewThread {
                for index in 0..<200 {
                    switch index % 4 {
                    case 0: stream.send(EventFrame(id: "\(index)", event: nil, data: "f"))
                    case 1: stream.send(id: "\(index)", event: nil, data: "s")
                    case 2: stream.comment("c\(index)")
                    default: stream.send(big)
                    }
                }
            }
            for index in 0..<200 {
                let block = try #require(try reader.next(comments: true))
                switch index % 4 {
                case 0: #expect(block == "id: \(index)\ndata: f")
                case 1: #expect(block == "id: \(index)\ndata: s")
                case 2:
                    // Heartbeats may come in between.
                    var comment = block
                    while comment == ": ping" { comment = try #require(try reader.next(comments: true)) }
                    #expect(comment == ": c\(index)")
                default: #expect(block + "\n\n" == text(big))
                }
            }
        }
    }

    @Test("A stream whose client does not read closes once its queue overflows")
    func overflowCloses() throws {
        let box = StreamBox()
        try withServer(handle: box.handler) { server in
            let reader = try EventReader(port: server.port)  // never reads past the head
            #expect(eventually { box.streams.values.count == 1 })
            let stream = try #require(box.streams.values.first)
            let frame = EventFrame(id: nil, event: nil, data: String(repeating: "x", count: 64 * 1024))
            var accepted = 0
            while accepted < 10_000, stream.send(frame) { accepted += 1 }
            #expect(accepted < 10_000)
            #expect(stream.isClosed)
            #expect(eventually { box.closed.values == [0] })
            withExtendedLifetime(reader) {}
        }
    }
}
