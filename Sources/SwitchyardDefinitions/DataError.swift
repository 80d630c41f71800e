/// A data operation that cannot be applied to the data as it is.
enum DataError: Error, CustomStringConvertible {
    case notAnObject(String)
    case notAnArray(String)
    case noElement(String, String)
    case wrongType(String, expected: String)

    var description: String {
        switch self {
        case .notAnObject(let path): "the data at '\(path)' goes through something that is not an object"
        case .notAnArray(let path): "the data at '\(path)' selects in something that is not an array"
        case .noElement(let path, let value): "no element matches \(value) at '\(path)'"
        case .wrongType(let path, let expected): "the data at '\(path)' is not \(expected)"
        }
    }
}
