import Switchyard
import Testing

/// ``Step/init(plainJSON:)`` is a fast path of `Codable`: it gives the step `Codable` gives, or nothing (and then
/// `Codable` gives the step or the error).
@Suite("Step decoding")
struct StepDecodingTests {
    static let values: [JSONValue] = [nil, "todo", "", 2, 2.5, true, ["x"], ["route": "a"]]
    static let members = ["route", "input", "animated", "item", "title", "message", "choice", "presentation"]

    @Test(arguments: Step.Action.allCases.map(\.rawValue) + ["nope"])
    func thePlainPathAgreesWithCodable(action: String) throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var object: [String: JSONValue] = ["action": .string(action)]
            for member in Self.members where Bool.random(using: &generator) {
                object[member] = Self.values.randomElement(using: &generator)
            }
            let codable = try? JSONValue.object(object).decode(Step.self)
            if let plain = Step(plainJSON: object) {
                #expect(plain == codable, "\(object)")
            } else if object["presentation"] ?? .null == .null {
                // Without a member that needs Codable, the plain path declines only what Codable refuses.
                #expect(codable == nil, "\(object)")
            }
        }
    }
}
