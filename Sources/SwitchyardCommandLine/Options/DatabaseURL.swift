import ArgumentParser

/// `--database-url`: the PostgreSQL several nodes share, as a `postgresql://` URL or a libpq `key=value` string.
struct DatabaseURL: CheckedArgument, Equatable {
    /// The URL as given, password included (``Settings/redacted(_:)`` hides it in logs).
    let url: String

    /// Reads a `postgresql://` or `postgres://` URL, or a libpq `key=value` string.
    init(checking text: String) throws(ArgumentRequirement) {
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") || text.contains("=") else {
            throw ArgumentRequirement(text: "must be a postgresql:// URL (or a libpq key=value string)")
        }
        url = text
    }

    /// Never the URL itself, which may hold a password.
    var defaultValueDescription: String { Settings.redacted(url) }
}
