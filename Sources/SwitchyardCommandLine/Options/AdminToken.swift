import ArgumentParser

/// `--admin-token`: the secret the admin endpoints require, or none (an empty text), which turns them off.
struct AdminToken: CheckedArgument, Equatable {
    /// The secret; nil: the admin endpoints are off.
    let secret: String?

    /// Reads a token of 16 printable ASCII characters or more, or an empty text for none.
    init(checking text: String) throws(ArgumentRequirement) {
        guard !text.isEmpty else {
            secret = nil
            return
        }
        guard text.count >= 16, text.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }) else {
            throw ArgumentRequirement(text: "must be at least 16 characters, without spaces (openssl rand -hex 32)")
        }
        secret = text
    }

    /// Never the secret itself.
    var defaultValueDescription: String { secret == nil ? "none" : "a secret" }
}
