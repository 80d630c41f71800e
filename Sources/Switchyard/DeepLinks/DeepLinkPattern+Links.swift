import Foundation

/// Writing links from a pattern (reverse routing): the opposite of ``DeepLinkPattern/match(_:)``.
extension DeepLinkPattern {
    /// The pattern's parameter names, host first, then the path's, then the query's.
    var parameterNames: [String] {
        ([host].compactMap { $0 } + path + query.map(\.segment)).compactMap(\.parameterName)
    }

    /// The link this pattern matches with `values` as its parameters, written like `example` where the pattern
    /// allows several spellings (schemes `a|b`, host `*`); nil when a value does not fit its parameter's type, a
    /// spelling is missing, or the link would not match back with exactly these values.
    func link(_ values: [String: String], like example: String?) -> String? {
        let sample = example.flatMap { URLComponents(string: $0) }
        guard let scheme = sample?.scheme ?? (schemes.count == 1 ? schemes.first : nil) else { return nil }
        let hostText: String
        switch host {
        case .literal(let literal): hostText = literal
        case .parameter(let name, _):
            guard let value = values[name] else { return nil }
            hostText = value
        case nil:
            guard let sampleHost = sample?.host else { return nil }
            hostText = sampleHost
        }
        var text = "\(scheme)://\(hostText)"
        for segment in path {
            guard let part = Self.spell(segment, values) else { return nil }
            text += "/" + (part.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? part)
        }
        let members = query.compactMap { key, segment -> String? in
            guard let value = Self.spell(segment, values) else { return nil }
            return "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: Self.queryValueCharacters) ?? value)"
        }
        guard members.count == query.count else { return nil }
        if !members.isEmpty { text += "?" + members.joined(separator: "&") }
        guard let matched = match(text), matched.parameters == values else { return nil }
        return text
    }

    private static func spell(_ segment: Segment, _ values: [String: String]) -> String? {
        switch segment {
        case .literal(let literal): return literal
        case .parameter(let name, _): return values[name]
        }
    }

    /// What a path segment keeps unescaped: RFC 3986's `pchar` without `/`.
    private static let segmentCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
    /// What a query member's value keeps unescaped: the query's characters without `&`, `=` and `+`.
    private static let queryValueCharacters = CharacterSet.urlQueryAllowed.subtracting(
        CharacterSet(charactersIn: "&=+"))
}
