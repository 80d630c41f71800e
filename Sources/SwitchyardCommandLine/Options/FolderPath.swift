import ArgumentParser

/// `--data`: a folder, which must be named (an empty text is refused).
struct FolderPath: CheckedArgument, Equatable {
    /// The folder's path.
    let path: String

    /// A default written in the code: `FolderPath("data")`.
    init(_ path: String) {
        precondition(!path.isEmpty, "a folder must be named")
        self.path = path
    }

    /// Reads a path that is not empty.
    init(checking text: String) throws(ArgumentRequirement) {
        guard !text.isEmpty else { throw ArgumentRequirement(text: "must name a folder") }
        path = text
    }

    /// The path.
    var defaultValueDescription: String { path }

    /// Completed as a folder.
    static var defaultCompletionKind: CompletionKind { .directory }
}
