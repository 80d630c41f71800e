/// Whether one pattern matches every link another matches: then the other, tried after it, never runs.
extension DeepLinkPattern {
    /// True when every URL `other` matches, this pattern matches too (judged from the patterns alone).
    func covers(_ other: DeepLinkPattern) -> Bool {
        guard schemes.isEmpty || (!other.schemes.isEmpty && other.schemes.isSubset(of: schemes)) else { return false }
        if let host {
            guard let otherHost = other.host, Self.segment(host, covers: otherHost) else { return false }
        }
        guard path.count == other.path.count, zip(path, other.path).allSatisfy(Self.segment(_:covers:)) else {
            return false
        }
        return query.allSatisfy { required in
            other.query.contains { $0.key == required.key && Self.segment(required.segment, covers: $0.segment) }
        }
    }

    /// True when every value `other` accepts, `segment` accepts too.
    private static func segment(_ segment: Segment, covers other: Segment) -> Bool {
        switch (segment, other) {
        case (.literal(let literal), .literal(let otherLiteral)):
            return literal.caseInsensitiveCompare(otherLiteral) == .orderedSame
        case (.literal, .parameter):
            return false
        case (.parameter(_, let type), .literal(let literal)):
            return type.accepts(literal)
        case (.parameter(_, let type), .parameter(_, let otherType)):
            return type == .string || type == otherType
        }
    }
}
