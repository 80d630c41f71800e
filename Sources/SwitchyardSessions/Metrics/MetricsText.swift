/// The Prometheus text exposition format, written one metric family at a time: the session layer writes its own
/// families, the front end its own around them.
package struct MetricsText {
    /// The text so far.
    package private(set) var text = ""

    package init() {}

    /// A family with one unlabelled sample: `# HELP`, `# TYPE`, then `name value`.
    package mutating func family(_ name: String, _ type: MetricType, _ help: String, _ value: some Numeric) {
        family(name, type, help, samples: [("", "\(value)")])
    }

    /// A family with a sample per label set (`labels`: `key="value",…`, escaped by ``label(_:)``; "" for none).
    package mutating func family(
        _ name: String, _ type: MetricType, _ help: String, samples: [(labels: String, value: String)]
    ) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type.rawValue)\n"
        for (labels, value) in samples {
            text += labels.isEmpty ? "\(name) \(value)\n" : "\(name){\(labels)} \(value)\n"
        }
    }

    /// Appends `lines` as they are (a histogram's series).
    package mutating func append(_ lines: String) {
        text += lines
    }

    /// A label value escaped for the text exposition: backslash, double quote and line feed.
    package static func label(_ value: String) -> String {
        guard value.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return value }
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The kinds of metric the session layer and the front end expose.
    package enum MetricType: String, Sendable {
        case counter, gauge, histogram
    }
}
