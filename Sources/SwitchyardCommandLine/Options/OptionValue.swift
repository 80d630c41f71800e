import ArgumentParser

/// A `serve` option as the command line left it: the text given with its flag, or the option's default. The text is
/// read (``CheckedArgument``) when ``OptionEnvironment`` resolves it, which knows which flag it came with; the
/// default is used only when the option's environment variable is not set either. `--help` shows the default.
enum OptionValue<Value: CheckedArgument>: ExpressibleByArgument, Sendable {
    /// The text given with the option's flag, not checked yet.
    case given(String)
    /// The option's default, written once: as the property's initial value.
    case standard(Value)

    /// The flag's text, to check once its source is known.
    init(argument: String) { self = .given(argument) }

    /// What `--help` shows after `default:`.
    var defaultValueDescription: String {
        switch self {
        case .given(let text): text
        case .standard(let value): value.defaultValueDescription
        }
    }

    /// The values `--help` lists, for options with a few.
    static var allValueStrings: [String] { Value.allValueStrings }

    /// How a shell completes the option's value.
    static var defaultCompletionKind: CompletionKind { Value.defaultCompletionKind }
}
