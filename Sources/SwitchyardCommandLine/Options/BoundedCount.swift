import ArgumentParser

/// A whole number within `Bounds`: `--max-sessions 5000`.
struct BoundedCount<Bounds: CountBounds>: CheckedArgument, ExpressibleByIntegerLiteral, Equatable {
    /// The number, within `Bounds.range`.
    let value: Int

    /// Reads a whole number within `Bounds.range`.
    init(checking text: String) throws(ArgumentRequirement) {
        guard let value = Int(text), Bounds.range.contains(value) else {
            let range = Bounds.range
            throw ArgumentRequirement(text: "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        self.value = value
    }

    /// A default written in the code, which must be within the bounds.
    init(integerLiteral value: Int) {
        precondition(Bounds.range.contains(value), "\(value) is out of \(Bounds.range)")
        self.value = value
    }

    /// The number, as `--help` shows a default.
    var defaultValueDescription: String { "\(value)" }
}
