import Testing

@testable import MicroHTTP

/// Snapshot events: a newer whole state replaces older ones a slow client has not begun to receive.
@Suite("Snapshot events")
struct SnapshotTests {
    /// Everything the stream would write now, as text.
    private func drain(_ stream: EventStream, max: Int = 1 << 20) -> String {
        var buffer = [CChar](repeating: 0, count: max)
        let count = buffer.withUnsafeMutableBufferPointer { stream.read(into: $0.baseAddress!, max: max) }
        guard count > 0 else { return "" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("A client that keeps up gets every snapshot")
    func keepsSnapshotsWhileTheClientKeepsUp() {
        let stream = EventStream()
        for version in 1...3 {
            stream.send(EventFrame(id: "\(version)", event: "state", data: "s", role: .snapshot))
        }
        #expect(drain(stream).components(separatedBy: "event: state").count == 4)
    }

    @Test("A snapshot replaces queued snapshots; other events keep their place")
    func replacesQueuedSnapshots() {
        let stream = EventStream(coalescingThreshold: 0)
        stream.send(EventFrame(id: "1", event: "state", data: "one", role: .snapshot))
        stream.comment("ping")
        stream.send(EventFrame(id: "2", event: "state", data: "two", role: .snapshot))
        stream.send(EventFrame(id: nil, event: "note", data: "kept"))
        stream.send(EventFrame(id: "3", event: "state", data: "three", role: .snapshot))
        #expect(
            drain(stream) == ": ping\n\nevent: note\ndata: kept\n\nid: 3\nevent: state\ndata: three\n\n")
    }

    @Test("A snapshot the client has begun to receive is finished, not replaced")
    func keepsAStartedSnapshot() {
        let stream = EventStream(coalescingThreshold: 0)
        stream.send(EventFrame(id: "1", event: "state", data: "one", role: .snapshot))
        #expect(drain(stream, max: 5) == "id: 1")
        stream.send(EventFrame(id: "2", event: "state", data: "two", role: .snapshot))
        stream.send(EventFrame(id: "3", event: "state", data: "three", role: .snapshot))
        #expect(drain(stream) == "\nevent: state\ndata: one\n\nid: 3\nevent: state\ndata: three\n\n")
    }

    @Test("Events that are not snapshots are all delivered")
    func ordinaryEventsAreNeverDropped() {
        let stream = EventStream(coalescingThreshold: 0)
        for index in 0..<5 { stream.send(EventFrame(id: "\(index)", event: "tick", data: "\(index)")) }
        #expect(drain(stream).components(separatedBy: "event: tick").count == 6)
    }

    @Test("A client that keeps up gets every delta; one that fell behind gets the snapshot in their place")
    func deltasGiveWayToASnapshotWhenBehind() {
        let stream = EventStream(coalescingThreshold: 40)
        let delta = { (version: Int) in EventFrame(id: "\(version)", event: "patch", data: "d\(version)", role: .delta)
        }
        let whole = { (version: Int) in
            EventFrame(id: "\(version)", event: "state", data: "s\(version)", role: .snapshot)
        }
        stream.send(whole(1))
        stream.send(delta(2), orWhenBehind: whole(2))
        #expect(drain(stream) == "id: 1\nevent: state\ndata: s1\n\nid: 2\nevent: patch\ndata: d2\n\n")
        // Unread: deltas queue until 40 bytes wait; then the whole state replaces them, and deltas follow it.
        for version in 3...6 { stream.send(delta(version), orWhenBehind: whole(version)) }
        #expect(drain(stream) == "id: 5\nevent: state\ndata: s5\n\nid: 6\nevent: patch\ndata: d6\n\n")
    }
}
