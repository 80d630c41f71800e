import Foundation
import Switchyard
import Testing

@Suite("JSONValueDecoder agrees with JSONDecoder")
struct JSONValueDecoderTests {
    struct Sample: Codable, Hashable {
        var name: String
        var age: Int
        var score: Double?
        var tags: [String]
        var fields: [String: String]?
        var nested: [Profile]?
        var flag: Bool?
        var any: JSONValue?
    }

    static let inputs: [String] = [
        #"{"name":"a","age":3,"tags":[]}"#,
        #"{"name":"a","age":3,"score":2.5,"tags":["x","y"],"fields":{"k":"v"},"flag":true,"any":{"z":[1,null]}}"#,
        #"{"name":"a","age":3,"tags":[],"nested":[{"name":"b","age":1}],"any":null}"#,
        #"{"name":"a","age":3.5,"tags":[]}"#,
        #"{"name":"a","age":"3","tags":[]}"#,
        #"{"name":"a","age":1e300,"tags":[]}"#,
        #"{"name":5,"age":3,"tags":[]}"#,
        #"{"age":3,"tags":[]}"#,
        #"{"name":"a","age":3,"tags":[1]}"#,
        #"{"name":"a","age":3,"tags":null}"#,
        #"{"name":"a","age":3,"tags":[],"flag":1}"#,
        #"{"name":"a","age":3,"tags":[],"fields":{"k":1}}"#,
        #"{"name":"a","age":3,"tags":[],"nested":[{"name":"b"}]}"#,
        #"[1,2]"#,
        #""text""#,
    ]

    @Test(arguments: inputs)
    func decodesAndRefusesLikeJSONDecoder(_ text: String) throws {
        let foundation = try? JSONDecoder().decode(Sample.self, from: Data(text.utf8))
        let ours = try? JSONValueDecoder().decode(Sample.self, from: JSONValue(parsing: Array(text.utf8)))
        #expect(ours == foundation)
    }

    @Test func stepsAndTheirErrorsComeThrough() throws {
        let step = try JSONValueDecoder().decode(
            Step.self, from: ["action": "push", "route": "todo", "input": ["id": 1], "animated": false])
        #expect(step == Step(.push(route: "todo", input: ["id": 1]), animated: false))
        #expect(throws: NavigationError.self) {
            _ = try JSONValueDecoder().decode(Step.self, from: ["action": "jump"])
        }
        #expect(throws: DecodingError.self) {
            _ = try JSONValueDecoder().decode(Step.self, from: ["action": "push", "animated": "yes"])
        }
    }
}
