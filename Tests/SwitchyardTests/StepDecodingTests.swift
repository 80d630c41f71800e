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
        var generator = SeededGenerator(seed: UInt64(action.utf8.count) &* 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<400 {
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

/// xorshift64*, seeded: the same objects on every run.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed | 1 }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
