import Foundation
import Logging
import SwitchyardJSON

/// Writes one JSON object per log line to standard error: `{"time","level","label","message",…metadata}`.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: JSONValue] = [
            "time": .string(Date().ISO8601Format()), "level": .string(event.level.rawValue),
            "label": .string(label), "message": .string("\(event.message)"),
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            fields[key] = .string("\(value)")
        }
        var line = JSONValue.object(fields).serialized()
        line.append(10)
        FileHandle.standardError.write(Data(line))
    }
}
