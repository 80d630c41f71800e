/// A template refused as it is parsed (``MustacheParser``).
enum TemplateError: Error, CustomStringConvertible {
    case tooLong(Int)
    case tooDeep(Int)
    case unclosedTag(String)
    case unclosedSection(String)
    case unexpectedClose(String)
    case mismatchedClose(opened: String, closed: String)
    case invalidName(String)
    case invalidDelimiters(String)
    case unsupported(String)

    var description: String {
        switch self {
        case .tooLong(let limit): "it is longer than \(limit) bytes"
        case .tooDeep(let limit): "its sections nest deeper than \(limit)"
        case .unclosedTag(let text): "the tag '\(text)' is not closed"
        case .unclosedSection(let name): "the section '\(name)' is not closed"
        case .unexpectedClose(let name): "'{{/\(name)}}' closes no section"
        case .mismatchedClose(let opened, let closed): "'{{/\(closed)}}' closes the section '\(opened)'"
        case .invalidName(let name): "'\(name)' is not a name"
        case .invalidDelimiters(let text): "'\(text)' are not two delimiters"
        case .unsupported(let tag):
            "'{{\(tag)}}': partials, parents, blocks and pragmas are not supported (a definition has no templates to include)"
        }
    }
}
