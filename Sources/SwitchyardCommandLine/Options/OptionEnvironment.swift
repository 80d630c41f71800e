import ArgumentParser

/// The one place `serve` reads its environment variables. Every option `--NAME` has the variable `SWITCHYARD_NAME`
/// (upper case, `-` as `_`): an option's value is its flag's, else its variable's, else its default. A bad value is
/// refused naming the flag or the variable it came from.
struct OptionEnvironment {
    /// The process's environment (or a test's).
    let variables: [String: String]

    /// The variable of the option `--name`: `max-sessions` → `SWITCHYARD_MAX_SESSIONS`.
    static func variable(of name: String) -> String {
        "SWITCHYARD_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The value of the option `--name`: its flag's, else its variable's, else its default.
    /// - Throws: a `ValidationError` naming the flag or variable whose text is not a value.
    func value<Value>(_ option: OptionValue<Value>, _ name: String) throws -> Value {
        let variable = Self.variable(of: name)
        switch option {
        case .given(let text): return try Self.checked(text, from: "--" + name)
        case .standard(let value):
            guard let text = variables[variable] else { return value }
            return try Self.checked(text, from: variable)
        }
    }

    /// The value of the option `--name`, which has no default: its flag's, else its variable's, else nil.
    func value<Value>(_ option: OptionValue<Value>?, _ name: String) throws -> Value? {
        try sourced(option, name)?.value
    }

    /// The value of the option `--name` and where it came from (`--name` or its variable); nil when neither was given
    /// and there is no default (the source of a default is `default`).
    func sourced<Value>(_ option: OptionValue<Value>?, _ name: String) throws -> (value: Value, source: String)? {
        let flag = "--" + name
        let variable = Self.variable(of: name)
        if case .given(let text) = option { return (try Self.checked(text, from: flag), flag) }
        if let text = variables[variable] { return (try Self.checked(text, from: variable), variable) }
        if case .standard(let value) = option { return (value, "default") }
        return nil
    }

    /// A repeatable option's values with their source: those given with `flag`, else those listed in `variable`
    /// (split at `separator`; `--app` has `SWITCHYARD_APPS`, `--rollout` `SWITCHYARD_ROLLOUTS`).
    func list(
        _ given: [String], flag: String, variable: String, separator: Character
    ) -> [(text: String, source: String)] {
        if !given.isEmpty { return given.map { ($0, flag) } }
        let listed = variables[variable]?.split(separator: separator) ?? []
        return listed.map { (String($0), variable) }
    }

    private static func checked<Value: CheckedArgument>(_ text: String, from source: String) throws -> Value {
        do {
            return try Value(checking: text)
        } catch {
            throw error.refusing(source)
        }
    }
}
