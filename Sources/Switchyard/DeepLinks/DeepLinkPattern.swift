import Foundation

/// A URL pattern such as `jumper://io.idevs/todo/:id`, `http|https://*/todo/:id` or `app://x/page/:n(int)?tab=:tab`.
///
/// - The scheme may list alternatives with `|`; the host may be `*` (any host).
/// - A path segment `:name` captures a string; `:name(int)`, `:name(bool)` and `:name(uuid)` capture typed values —
///   a value that does not parse means the pattern does not match.
/// - Query members `name=:param` are required parameters; other query members of the URL are passed along.
struct DeepLinkPattern: Sendable {
    enum Segment: Sendable {
        case literal(String)
        case parameter(String, ParameterType)

        var parameterName: String? {
            if case .parameter(let name, _) = self, !name.isEmpty { return name }
            return nil
        }
    }

    enum ParameterType: String, Sendable {
        case string, int, bool, uuid

        func accepts(_ value: String) -> Bool {
            switch self {
            case .string: return !value.isEmpty
            case .int: return Int(value) != nil
            case .bool: return value == "true" || value == "false"
            case .uuid: return UUID(uuidString: value) != nil
            }
        }
    }

    let text: String
    let schemes: Set<String>
    let host: Segment?
    let path: [Segment]
    let query: [(key: String, segment: Segment)]
    /// Why the pattern cannot work as written: a scheme no URL can have, an unknown parameter type, a parameter
    /// named twice or not at all, a query member that is not `key=value`. Empty for a sound pattern.
    let problems: [String]

    init(_ text: String) {
        self.text = text
        var problems: [String] = []
        var rest = Substring(text)
        var schemes: Set<String> = []
        if let range = rest.range(of: "://") {
            let alternatives = rest[..<range.lowerBound].split(separator: "|", omittingEmptySubsequences: false)
            for scheme in alternatives where !Self.isScheme(scheme) {
                problems.append("'\(scheme)' is not a URL scheme (a letter, then letters, digits, '+', '-' or '.')")
            }
            schemes = Set(alternatives.map { $0.lowercased() })
            rest = rest[range.upperBound...]
        }
        var queryPart: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            queryPart = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var parts = rest.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if !schemes.isEmpty, !parts.isEmpty {
            let hostPart = parts.removeFirst()
            host = hostPart == "*" ? nil : Self.segment(hostPart, problems: &problems)
        } else {
            host = nil
        }
        self.schemes = schemes
        path = parts.map { Self.segment($0, problems: &problems) }
        query = queryPart.split(separator: "&").compactMap { pair in
            let pieces = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2, !pieces[0].isEmpty else {
                problems.append("the query member '\(pair)' is not key=value or key=:parameter")
                return nil
            }
            return (pieces[0], Self.segment(pieces[1], problems: &problems))
        }
        let names = ([host].compactMap { $0 } + path + query.map(\.segment)).compactMap(\.parameterName)
        for name in Set(names).sorted() where names.count(where: { $0 == name }) > 1 {
            problems.append("the parameter ':\(name)' appears more than once (the last value would replace the others)")
        }
        self.problems = problems
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    private static func segment(_ text: String, problems: inout [String]) -> Segment {
        guard text.hasPrefix(":") else { return .literal(text) }
        var name = String(text.dropFirst())
        var type = ParameterType.string
        if let open = name.firstIndex(of: "("), name.hasSuffix(")") {
            let typeName = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
            name = String(name[..<open])
            if let known = ParameterType(rawValue: typeName) {
                type = known
            } else {
                problems.append("':\(name)(\(typeName))' names an unknown type (int, bool, uuid, or none for a string)")
            }
        }
        if name.isEmpty { problems.append("'\(text)' names no parameter after the ':'") }
        return .parameter(name, type)
    }

    /// Matches a URL; nil if it does not match.
    func match(_ url: String) -> DeepLink? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            return nil
        }
        guard schemes.isEmpty || schemes.contains(scheme) else { return nil }
        var parameters: [String: String] = [:]
        if let host {
            guard let actual = components.host, Self.bind(host, actual, into: &parameters) else { return nil }
        }
        let segments = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: true)
            .map { String($0).removingPercentEncoding ?? String($0) }
        guard segments.count == path.count else { return nil }
        for (pattern, actual) in zip(path, segments) {
            guard Self.bind(pattern, actual, into: &parameters) else { return nil }
        }
        var queryValues: [String: String] = [:]
        for item in components.queryItems ?? [] {
            queryValues[item.name] = item.value ?? ""
        }
        for (key, pattern) in query {
            guard let actual = queryValues[key], Self.bind(pattern, actual, into: &parameters) else { return nil }
        }
        return DeepLink(url: url, pattern: text, parameters: parameters, query: queryValues)
    }

    private static func bind(_ segment: Segment, _ actual: String, into parameters: inout [String: String]) -> Bool {
        switch segment {
        case .literal(let literal):
            return literal.caseInsensitiveCompare(actual) == .orderedSame
        case .parameter(let name, let type):
            guard type.accepts(actual) else { return false }
            parameters[name] = actual
            return true
        }
    }
}
