import MicroHTTP
import SwitchyardSessions

/// A session's subscriber on an HTTP event stream (`GET …/stream`): each frame is encoded once as a Server-Sent
/// Event (`id: <version>`, `event: state|patch`) and shared by every stream it goes to.
final class EventStreamSubscriber: SessionSubscriber {
    let stream: EventStream
    let updates: StreamUpdates

    init(stream: EventStream, updates: StreamUpdates) {
        self.stream = stream
        self.updates = updates
    }

    func send(_ frame: StreamFrame) -> Bool {
        stream.send(Self.event(frame))
    }

    func send(_ patch: StreamFrame, orWhenBehind state: @autoclosure () -> StreamFrame) -> Bool {
        stream.send(Self.event(patch), orWhenBehind: Self.event(state()))
    }

    func close() {
        stream.close()
    }

    /// The frame as an event, made once per frame.
    private static func event(_ frame: StreamFrame) -> EventFrame {
        frame.encoded { frame in
            EventFrame(
                id: String(frame.version), event: frame.kind.rawValue,
                data: String(decoding: frame.data, as: UTF8.self),
                role: frame.kind == .state ? .snapshot : .delta)
        }
    }
}
