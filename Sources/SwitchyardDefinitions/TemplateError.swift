/// A template refused before it is parsed.
enum TemplateError: Error, CustomStringConvertible {
    case tooLong(Int)
    case tooDeep(Int)

    var description: String {
        switch self {
        case .tooLong(let limit): "it is longer than \(limit) bytes"
        case .tooDeep(let limit): "its sections nest deeper than \(limit)"
        }
    }
}
