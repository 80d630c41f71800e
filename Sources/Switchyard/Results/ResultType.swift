/// The result type of a route whose output ``ProducesResult``: its name, and how a JSON result is decoded as it.
package struct ResultType {
    /// The type's name, e.g. `String`.
    package let name: String
    /// Decodes a JSON result; throws the decoding error when it is not of the type.
    package let decode: (JSONValue) throws -> any Sendable

    /// A result type given by name, with its decoding.
    package init(name: String, decode: @escaping (JSONValue) throws -> any Sendable) {
        self.name = name
        self.decode = decode
    }

    /// The result type of `output`, or nil when it produces none.
    init?(of output: Any.Type) {
        guard let producing = output as? any ProducesResult.Type else { return nil }
        self.init(producing)
    }

    private init<Output: ProducesResult>(_: Output.Type) {
        name = String(describing: Output.ResultValue.self)
        decode = { try $0.decode(Output.ResultValue.self) }
    }
}
