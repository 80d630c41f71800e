import Synchronization

/// One version of a session as a stream sends it: the whole state document, or a JSON Patch from the version before.
///
/// A frame is made once per version and shared by every subscriber; ``encoded(_:)`` keeps the transport's encoding
/// of it, so that a broadcast encodes each frame once however many subscribers it reaches.
package final class StreamFrame: Sendable {
    /// What the frame holds.
    package enum Kind: String, Sendable {
        /// The whole state document (`event: state`).
        case state
        /// An RFC 6902 JSON Patch from the version before (`event: patch`).
        case patch
    }

    /// The version it brings the subscriber to.
    package let version: Int
    package let kind: Kind
    /// The JSON text.
    package let data: [UInt8]
    private let encoding = Mutex<(any Sendable)?>(nil)

    package init(version: Int, kind: Kind, data: [UInt8]) {
        self.version = version
        self.kind = kind
        self.data = data
    }

    /// The frame as a transport encodes it, made by `encode` on first use and shared afterwards.
    package func encoded<Encoding: Sendable>(_ encode: (StreamFrame) -> Encoding) -> Encoding {
        encoding.withLock { cached in
            if let made = cached as? Encoding { return made }
            let made = encode(self)
            cached = made
            return made
        }
    }
}
