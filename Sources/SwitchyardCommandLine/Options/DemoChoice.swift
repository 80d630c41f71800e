import ArgumentParser

/// `--demo`: whether the apps built into the program (the todo demo in `switchyard`) are served beside the `--app`
/// definitions.
enum DemoChoice: String, CaseIterable, CheckedArgument {
    /// Served, after the definitions.
    case on
    /// Left out: only the definitions are served (at least one is needed).
    case off
}
