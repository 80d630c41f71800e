/// The result type of a route whose output ``ProducesResult``: its name, and how a JSON result is decoded as it.
struct ResultType {
    /// The type's name, e.g. `String`.
    let name: String
    /// Decodes a JSON result; throws the decoding error when it is not of the type.
    let decode: (JSONValue) throws -> any Sendable

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
