import Foundation
import Switchyard
import Testing

/// `JSONValue(encoding:)` builds the value in one pass and must give what `JSONEncoder` gives.
@Suite("JSON value encoder")
struct JSONValueEncoderTests {
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case square(Int)
        case empty
    }

    struct Everything: Codable, Equatable {
        var text = "a \"quoted\" line\n"
        var flag = true
        var count = -42
        var small: Int8 = -8
        var big: UInt64 = 9_007_199_254_740_992
        var ratio = 0.1
        var optional: String? = nil
        var present: Int? = 7
        var list: [Int?] = [1, nil, 3]
        var nested: [[String: [Bool]]] = [["x": [true, false]], [:]]
        var shapes: [Shape] = [.circle(radius: 2.5), .square(3), .empty]
        var date = Date(timeIntervalSinceReferenceDate: 1234.5)
        var set: [String: Int] = ["b": 2, "a": 1]
    }

    class Base: Codable {
        var id = 1
    }

    final class Derived: Base {
        var name = "derived"
        private enum CodingKeys: String, CodingKey { case name }
        override init() { super.init() }
        required init(from decoder: any Decoder) throws { try super.init(from: decoder) }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
        }
    }

    struct Foundationy: Codable {
        var data = Data([1, 2, 255])
        var url = URL(string: "https://example.com/a?b=c")!
        var float: Float = 0.1
        var decimal = Decimal(string: "12.345")!
    }

    func viaFoundation(_ value: some Encodable) throws -> JSONValue {
        try JSONValue(parsing: JSONEncoder().encode(value))
    }

    @Test func itGivesWhatJSONEncoderGives() throws {
        #expect(try JSONValueEncoder().encode(Everything()) == viaFoundation(Everything()))
        #expect(try JSONValueEncoder().encode(Derived()) == viaFoundation(Derived()))
        #expect(try JSONValueEncoder().encode([Shape.square(1)]) == viaFoundation([Shape.square(1)]))
        #expect(try JSONValueEncoder().encode(["k": [1.5, 2]]) == viaFoundation(["k": [1.5, 2]]))
        #expect(try JSONValue(encoding: Everything()).decode(Everything.self) == Everything())
    }

    @Test func typesJSONEncoderWritesItsOwnWayGoThroughIt() throws {
        #expect(throws: JSONValueEncoder.NeedsFoundation.self) { try JSONValueEncoder().encode(Foundationy()) }
        #expect(try JSONValue(encoding: Foundationy()) == viaFoundation(Foundationy()))
    }

    @Test func whatJSONCannotHoldIsRefused() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Double.nan) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["x": Double.infinity]) }
    }
}
