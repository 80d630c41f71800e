import Switchyard
import Testing

@Suite("JSON Patch")
struct JSONPatchTests {
    @Test func theDiffNamesEachChange() throws {
        // A large member that stays: patching member by member is then shorter than replacing the whole.
        let large = JSONValue.string(String(repeating: "text ", count: 60))
        let old: JSONValue = ["a": 1, "b": ["x", "y", "z", large], "c": ["d": true, "l": large], "e/f": "~"]
        let new: JSONValue = ["a": 2, "b": ["x", "q", large], "c": ["d": true, "g": nil, "l": large], "h": [1]]
        let patch = JSONPatch.diff(from: old, to: new)
        #expect(
            patch == [
                ["op": "remove", "path": "/e~1f"],
                ["op": "replace", "path": "/a", "value": 2],
                ["op": "replace", "path": "/b/1", "value": "q"],
                ["op": "remove", "path": "/b/2"],
                ["op": "replace", "path": "/c", "value": ["d": true, "g": nil, "l": large]],
                ["op": "add", "path": "/h", "value": [1]],
            ])
        #expect(try JSONPatch.apply(patch, to: old) == new)
        #expect(JSONPatch.diff(from: new, to: new) == [])
        #expect(JSONPatch.diff(from: 1, to: "one") == [["op": "replace", "path": "", "value": "one"]])
        // Member by member would be longer than the new value: one replace.
        #expect(
            JSONPatch.diff(from: ["a": 1, "b": 2], to: ["a": 3, "b": 4])
                == [["op": "replace", "path": "", "value": ["a": 3, "b": 4]]])
    }

    @Test(arguments: 0..<200 as Range<UInt64>)
    func applyingTheDiffGivesTheTarget(seed: UInt64) throws {
        var generator = Generator(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
        let old = generator.value(depth: 4)
        let new = generator.mutate(old, depth: 4)
        #expect(try JSONPatch.apply(JSONPatch.diff(from: old, to: new), to: old) == new)
    }

    @Test func aPatchThatDoesNotFitIsRefused() {
        #expect(throws: JSONPatch.ApplyError.self) {
            try JSONPatch.apply([["op": "remove", "path": "/missing"]], to: ["a": 1])
        }
        #expect(throws: JSONPatch.ApplyError.self) {
            try JSONPatch.apply([["op": "move", "path": "/a", "from": "/b"]], to: ["b": 1])
        }
        #expect(throws: JSONPatch.ApplyError.self) { try JSONPatch.apply(["op": "add"], to: 1) }
    }
}

/// Random JSON values and random edits of them (xorshift, seeded).
private struct Generator {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(bound))
    }

    mutating func value(depth: Int) -> JSONValue {
        switch depth == 0 ? next(4) : next(6) {
        case 0: return .null
        case 1: return .bool(next(2) == 0)
        case 2: return .number(Double(next(100)))
        case 3: return .string(["a", "b/c", "~d", ""][next(4)])
        case 4: return .array((0..<next(4)).map { _ in value(depth: depth - 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<next(4) { members[["k", "m/n", "~0", "z"][next(4)]] = value(depth: depth - 1) }
            return .object(members)
        }
    }

    mutating func mutate(_ value: JSONValue, depth: Int) -> JSONValue {
        if depth == 0 || next(5) == 0 { return next(2) == 0 ? value : self.value(depth: depth) }
        switch value {
        case .array(var elements):
            elements = elements.map { mutate($0, depth: depth - 1) }
            if next(3) == 0 { elements.append(self.value(depth: depth - 1)) }
            if next(3) == 0, !elements.isEmpty { elements.removeLast(next(elements.count) + 1) }
            return .array(elements)
        case .object(var members):
            for key in members.keys where next(4) == 0 { members[key] = nil }
            for (key, member) in members { members[key] = mutate(member, depth: depth - 1) }
            if next(3) == 0 { members["new"] = self.value(depth: depth - 1) }
            return .object(members)
        default:
            return self.value(depth: depth)
        }
    }
}
