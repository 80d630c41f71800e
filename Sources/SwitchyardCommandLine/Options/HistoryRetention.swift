import ArgumentParser

/// `--history-retention`: history entries a store keeps per session, or `all` that the bytes allow.
enum HistoryRetention: CheckedArgument, Equatable {
    /// As many as `--max-history` allows.
    case all
    /// At most this many.
    case entries(Int)

    /// Reads `all` or a whole number from 1 to 10,000,000.
    init(checking text: String) throws(ArgumentRequirement) {
        if text == "all" {
            self = .all
            return
        }
        do {
            self = .entries(try BoundedCount<Millions>(checking: text).value)
        } catch {
            throw ArgumentRequirement(text: error.text + ", or all")
        }
    }

    /// The store's limit: nil for all.
    var entries: Int? {
        switch self {
        case .all: nil
        case .entries(let count): count
        }
    }
}
