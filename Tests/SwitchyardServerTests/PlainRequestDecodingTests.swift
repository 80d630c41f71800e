import Switchyard
import Testing

@testable import SwitchyardServer

/// The one-pass decodings of the change bodies (``PlainJSONDecodable``) give what `Codable` gives, or nothing (and
/// then `Codable` gives the value or explains the error): random bodies of every member and value kind.
@Suite("Change bodies decoded in one pass")
struct PlainRequestDecodingTests {
    static let values: [JSONValue] = [
        nil, "x", "", 2, 2.5, -1, true, ["x"], ["a": "b"], ["a": 1], [:], 1e300,
    ]

    static func bodies(_ members: [String], seed: UInt64) -> [[String: JSONValue]] {
        var state = seed | 1
        func random() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
        return (0..<500).map { _ in
            var object: [String: JSONValue] = [:]
            for member in members where random() % 3 != 0 {
                object[member] = values[Int(random() % UInt64(values.count))]
            }
            return object
        }
    }

    @Test func eventsAgreeWithCodable() {
        for object in Self.bodies(["from", "name", "payload", "fields", "expectedVersion"], seed: 11) {
            let codable = try? JSONValue.object(object).decode(EventRequest.self)
            if let plain = EventRequest(plainJSON: .object(object)) {
                #expect(plain.name == codable?.name && plain.from == codable?.from, "\(object)")
                #expect(plain.payload == codable?.payload && plain.fields == codable?.fields, "\(object)")
                #expect(plain.expectedVersion == codable?.expectedVersion, "\(object)")
            } else {
                #expect(codable == nil, "declined a body Codable reads: \(object)")
            }
        }
    }

    @Test func deepLinksAgreeWithCodable() {
        for object in Self.bodies(["url", "expectedVersion"], seed: 23) {
            let codable = try? JSONValue.object(object).decode(DeepLinkRequest.self)
            if let plain = DeepLinkRequest(plainJSON: .object(object)) {
                #expect(plain.url == codable?.url && plain.expectedVersion == codable?.expectedVersion, "\(object)")
            } else {
                #expect(codable == nil, "declined a body Codable reads: \(object)")
            }
        }
    }

    @Test func restoresAgreeWithCodable() {
        for object in Self.bodies(["version", "expectedVersion"], seed: 37) {
            let codable = try? JSONValue.object(object).decode(RestoreRequest.self)
            if let plain = RestoreRequest(plainJSON: .object(object)) {
                #expect(
                    plain.version == codable?.version && plain.expectedVersion == codable?.expectedVersion, "\(object)")
            } else {
                #expect(codable == nil, "declined a body Codable reads: \(object)")
            }
        }
    }
}
