import ArgumentParser

/// The value of a `serve` option, read from text by its own rules. The text is checked once its source is known
/// (through ``OptionValue`` and ``OptionEnvironment``), so that a bad value is refused naming the flag or the
/// environment variable it came from, with what it must be: `--port must be a whole number from 0 to 65535`.
protocol CheckedArgument: ExpressibleByArgument, Sendable {
    /// Reads `text`.
    /// - Throws: what the text must be, e.g. `must be text or json`.
    init(checking text: String) throws(ArgumentRequirement)
}

extension CheckedArgument {
    /// The value of `argument`, or nil when it is not one.
    init?(argument: String) {
        guard let value = try? Self(checking: argument) else { return nil }
        self = value
    }
}

extension String: CheckedArgument {
    /// Any text is a string.
    init(checking text: String) { self = text }
}

extension CheckedArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    /// Reads one of the cases' names: `text` or `json`.
    init(checking text: String) throws(ArgumentRequirement) {
        guard let value = Self(rawValue: text) else {
            let names = Self.allCases.map(\.rawValue)
            let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names[0]
            throw ArgumentRequirement(text: "must be \(list)")
        }
        self = value
    }

    /// The case named `argument`, or nil.
    init?(argument: String) { self.init(rawValue: argument) }
}
