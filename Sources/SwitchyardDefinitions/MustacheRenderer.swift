import Foundation
import Switchyard

/// Renders ``MustacheNode``s against JSON values as text (nothing is escaped), spending a ``RenderBudget``.
///
/// A name is looked up in the values open, innermost first (each section's value is pushed), as Mustache does;
/// `null` counts as absent. A section renders once for each element of a list, once for `true` or any other present
/// value (pushed), never for `false`, absent or an empty list; an inverted section the other way round. A value is
/// written as text: a string as it is, a whole number without a fraction, `true`/`false`, a list or object as its
/// JSON. Transforms: `count`, `empty`, `first`, `last`, `reversed`, `sorted` (lists; `count`, `empty`, `sorted`
/// and `enumerated` of objects), `uppercased`, `lowercased`, `capitalized` (text), `equalzero`, `plusone`,
/// `minusone`, `even`, `odd` (whole numbers), and in a list's section `first()`, `last()`, `index()`, `even()`,
/// `odd()` of the element's position.
struct MustacheRenderer {
    private struct Position {
        var index: Int
        var count: Int
    }

    private(set) var output: [UInt8] = []
    private let budget: RenderBudget
    private var stack: [JSONValue]
    private var position: Position?

    init(root: JSONValue, budget: RenderBudget) {
        stack = [root]
        self.budget = budget
    }

    mutating func render(_ nodes: [MustacheNode]) {
        for node in nodes {
            guard budget.step() else { return }
            switch node {
            case .text(let bytes):
                write(bytes)
            case .variable(let name):
                if let value = resolve(name) { write(value) }
            case .section(let name, let inverted, let children):
                let value = resolve(name)
                if inverted {
                    if Self.isFalse(value) { render(children) }
                    continue
                }
                switch value {
                case nil, .bool(false)?: break
                case .bool(true)?: render(children)
                case .array(let elements)?:
                    let outer = position
                    for (index, element) in elements.enumerated() {
                        guard budget.step() else { break }
                        position = Position(index: index, count: elements.count)
                        stack.append(element)
                        render(children)
                        stack.removeLast()
                    }
                    position = outer
                case let value?:
                    stack.append(value)
                    render(children)
                    stack.removeLast()
                }
            }
        }
    }

    private static func isFalse(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .bool(false)?: true
        case .array(let elements)?: elements.isEmpty
        default: false
        }
    }

    private mutating func write(_ bytes: [UInt8]) {
        let allowed = budget.write(bytes.count)
        output.append(contentsOf: allowed == bytes.count ? bytes[...] : bytes.prefix(allowed))
    }

    private mutating func write(_ value: JSONValue) {
        switch value {
        case .null: break
        case .string(let text): write(Array(text.utf8))
        case .bool(let flag): write(Array((flag ? "true" : "false").utf8))
        case .number(let number):
            if let whole = Int(exactly: number) {
                write(Array(String(whole).utf8))
            } else {
                write(Array("\(number)".utf8))
            }
        case .array, .object:
            // Its JSON is made only within the budget: a step for each value in it, counted first.
            guard budget.spend(Self.values(in: value, upTo: budget.steps + 1)) else { return }
            write(value.serialized())
        }
    }

    /// How many values `value` holds (itself included), counting no further than `limit`.
    private static func values(in value: JSONValue, upTo limit: Int) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast(), count < limit {
            count += 1
            switch next {
            case .array(let elements): pending += elements.prefix(limit - count)
            case .object(let members): pending += members.values.prefix(limit - count)
            default: break
            }
        }
        return count
    }

    private func resolve(_ name: MustacheName) -> JSONValue? {
        var transforms = name.transforms[...]
        var value: JSONValue?
        if name.keys.isEmpty, !name.fromCurrent {
            guard let innermost = transforms.popLast(), let position else { return nil }
            value = Self.transform(position, innermost)
        } else if name.fromCurrent {
            value = Self.descend(stack[stack.count - 1], name.keys[...])
        } else {
            for frame in stack.reversed() {
                if let child = Self.child(frame, name.keys[0]) {
                    value = Self.descend(child, name.keys.dropFirst())
                    break
                }
            }
        }
        for transform in transforms.reversed() {
            guard let current = value, budget.spend(Self.cost(of: transform, on: current)) else { return nil }
            value = Self.transform(current, transform)
        }
        return value
    }

    /// The steps a transform of `value` takes: its elements (their order's n·log n to sort), its text's length in
    /// 64-byte pieces; 1 for what reads no more than one element.
    private static func cost(of transform: String, on value: JSONValue) -> Int {
        let count: Int
        switch value {
        case .array(let elements): count = elements.count
        case .object(let members): count = members.count
        case .string(let text): count = text.utf8.count / 64
        default: return 1
        }
        switch transform {
        case "count", "empty", "first", "last": return 1
        case "sorted", "enumerated": return 1 + count * max(1, Int.bitWidth - count.leadingZeroBitCount)
        default: return 1 + count
        }
    }

    private static func descend(_ value: JSONValue, _ keys: ArraySlice<String>) -> JSONValue? {
        var current = value
        for key in keys {
            guard let child = child(current, key) else { return nil }
            current = child
        }
        return current == .null ? nil : current
    }

    private static func child(_ value: JSONValue, _ key: String) -> JSONValue? {
        let child: JSONValue?
        switch value {
        case .object(let members): child = members[key]
        case .array(let elements):
            guard let index = Int(key), elements.indices.contains(index) else { return nil }
            child = elements[index]
        default: return nil
        }
        return child == .null ? nil : child
    }

    private static func transform(_ position: Position, _ name: String) -> JSONValue? {
        switch name {
        case "first": .bool(position.index == 0)
        case "last": .bool(position.index == position.count - 1)
        case "index": .number(Double(position.index))
        case "even": .bool(position.index % 2 == 0)
        case "odd": .bool(position.index % 2 == 1)
        default: nil
        }
    }

    private static func transform(_ value: JSONValue, _ name: String) -> JSONValue? {
        switch (value, name) {
        case (.string(let text), "empty"): .bool(text.isEmpty)
        case (.string(let text), "capitalized"): .string(text.capitalized)
        case (.string(let text), "lowercased"): .string(text.lowercased())
        case (.string(let text), "uppercased"): .string(text.uppercased())
        case (.string(let text), "reversed"): .string(String(text.reversed()))
        case (.array(let elements), "first"): elements.first.flatMap { $0 == .null ? nil : $0 }
        case (.array(let elements), "last"): elements.last.flatMap { $0 == .null ? nil : $0 }
        case (.array(let elements), "reversed"): .array(elements.reversed())
        case (.array(let elements), "count"): .number(Double(elements.count))
        case (.array(let elements), "empty"): .bool(elements.isEmpty)
        case (.array(let elements), "sorted"): sorted(elements).map(JSONValue.array)
        case (.object(let members), "count"): .number(Double(members.count))
        case (.object(let members), "empty"): .bool(members.isEmpty)
        case (.object(let members), "enumerated"), (.object(let members), "sorted"):
            .array(
                members.sorted { $0.key < $1.key }.map { .object(["key": .string($0.key), "value": $0.value]) })
        case (.number(let number), _) where number.rounded() == number:
            wholeNumber(number, name)
        default: nil
        }
    }

    private static func wholeNumber(_ number: Double, _ name: String) -> JSONValue? {
        switch name {
        case "equalzero": .bool(number == 0)
        case "plusone": .number(number + 1)
        case "minusone": .number(number - 1)
        case "even": .bool(number.truncatingRemainder(dividingBy: 2) == 0)
        case "odd": .bool(abs(number.truncatingRemainder(dividingBy: 2)) == 1)
        default: nil
        }
    }

    /// Text in order, or numbers in order; nil for a list of anything else (or of both).
    private static func sorted(_ elements: [JSONValue]) -> [JSONValue]? {
        let texts = elements.compactMap { if case .string(let text) = $0 { text } else { nil } }
        if texts.count == elements.count { return texts.sorted().map(JSONValue.string) }
        let numbers = elements.compactMap { if case .number(let number) = $0 { number } else { nil } }
        if numbers.count == elements.count { return numbers.sorted().map(JSONValue.number) }
        return nil
    }
}
