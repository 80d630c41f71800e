import Logging

/// A log handler that records each line as `level message` (and, when asked, its metadata as sorted `key=value`
/// pairs), for tests that check what a server logs.
public struct RecordingLogHandler: LogHandler {
    public let lines: Recorder<String>
    public let includesMetadata: Bool
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    /// A handler appending to `lines`; with `includesMetadata`, each line ends with the event's metadata.
    public init(lines: Recorder<String>, includesMetadata: Bool = false) {
        self.lines = lines
        self.includesMetadata = includesMetadata
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var words = ["\(event.level)", "\(event.message)"]
        if includesMetadata {
            words += (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        }
        lines.append(words.joined(separator: " "))
    }
}
