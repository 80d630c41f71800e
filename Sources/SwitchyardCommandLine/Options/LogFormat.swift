import ArgumentParser

/// `--log-format`: how log lines are written to standard error.
enum LogFormat: String, CaseIterable, CheckedArgument {
    /// One readable line each.
    case text
    /// One JSON object per line, for log collectors.
    case json
}
