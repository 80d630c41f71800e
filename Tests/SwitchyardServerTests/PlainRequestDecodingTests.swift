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

    /// For random bodies of `members`: the plain path gives what `Codable` gives (`same` compares every member), or
    /// declines a body only `Codable` refuses too.
    static func expectAgreement<Request: StrictRequest & PlainJSONDecodable>(
        _ type: Request.Type, _ members: [String], seed: UInt64, same: (Request, Request?) -> Bool
    ) {
        for object in bodies(members, seed: seed) {
            let codable = try? JSONValue.object(object).decode(Request.self)
            if let plain = Request(plainJSON: .object(object)) {
                #expect(same(plain, codable), "\(object)")
            } else {
                #expect(codable == nil, "declined a body Codable reads: \(object)")
            }
        }
    }

    @Test func eventsAgreeWithCodable() {
        Self.expectAgreement(EventRequest.self, ["from", "name", "payload", "fields", "expectedVersion"], seed: 11) {
            $0.name == $1?.name && $0.from == $1?.from && $0.payload == $1?.payload && $0.fields == $1?.fields
                && $0.expectedVersion == $1?.expectedVersion
        }
    }

    @Test func deepLinksAgreeWithCodable() {
        Self.expectAgreement(DeepLinkRequest.self, ["url", "expectedVersion"], seed: 23) {
            $0.url == $1?.url && $0.expectedVersion == $1?.expectedVersion
        }
    }

    @Test func restoresAgreeWithCodable() {
        Self.expectAgreement(RestoreRequest.self, ["version", "expectedVersion"], seed: 37) {
            $0.version == $1?.version && $0.expectedVersion == $1?.expectedVersion
        }
    }
}
