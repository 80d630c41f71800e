import Switchyard

/// The JSON type a route's input or a screen's result has: `string`, `integer`, `number`, `boolean`, `object`,
/// `array`, or `any`.
enum ValueType: String, Sendable, Hashable, CaseIterable {
    case string, integer, number, boolean, object, array, any

    /// The type's name as the catalog shows it (`String`, `Int`, …), like a Swift route's.
    var typeName: String {
        switch self {
        case .string: "String"
        case .integer: "Int"
        case .number: "Double"
        case .boolean: "Bool"
        case .object: "Object"
        case .array: "Array"
        case .any: "JSON"
        }
    }

    /// Whether `value` is of this type.
    func accepts(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.any, _), (.string, .string), (.number, .number), (.boolean, .bool), (.object, .object),
            (.array, .array):
            true
        case (.integer, .number(let number)): Int(exactly: number) != nil
        default: false
        }
    }

    static func read(_ value: JSONValue?, at pointer: String, _ reader: DefinitionReader) -> ValueType? {
        reader.choice(value, at: pointer, "value type", allCases.map(\.rawValue)).flatMap(ValueType.init(rawValue:))
    }
}
