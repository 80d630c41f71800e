/// Parses a Mustache template into ``MustacheNode``s without recursion (a stack of the sections open, at most
/// ``Template/maxSectionDepth`` deep): text, variables (`{{name}}`, `{{{name}}}`, `{{&name}}`), sections
/// (`{{#name}}`, `{{^name}}`, `{{/name}}`), comments (`{{! … }}`) and delimiter changes (`{{=<% %>=}}`), with the
/// specification's standalone lines (a line holding only a section, comment or delimiter tag is left out whole).
/// Partials (`{{>name}}`), parents (`{{<name}}`), blocks (`{{$name}}`) and pragmas (`{{%…}}`) are refused: a
/// definition has no templates to include, so they could only ever render nothing.
struct MustacheParser {
    private let bytes: [UInt8]
    private var index = 0
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var pending: [UInt8] = []
    /// The sections open, innermost last; the first is the template itself.
    private var sections: [(name: MustacheName?, inverted: Bool, nodes: [MustacheNode])] = [(nil, false, [])]

    /// The nodes of `text`, or why it is refused.
    static func parse(_ text: String, maxDepth: Int) throws(TemplateError) -> [MustacheNode] {
        var parser = MustacheParser(bytes: Array(text.utf8))
        return try parser.run(maxDepth: maxDepth)
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func run(maxDepth: Int) throws(TemplateError) -> [MustacheNode] {
        while let tagStart = find(open, from: index) {
            pending.append(contentsOf: bytes[index..<tagStart])
            var contentStart = tagStart + open.count
            var closing = close
            if contentStart < bytes.count, bytes[contentStart] == UInt8(ascii: "{") {
                closing = [UInt8(ascii: "}")] + close
                contentStart += 1
            }
            guard let closeStart = find(closing, from: contentStart) else {
                throw .unclosedTag(String(decoding: bytes[tagStart...].prefix(40), as: UTF8.self))
            }
            let tagEnd = closeStart + closing.count
            let triple = closing.count > close.count
            let content = trimmed(bytes[contentStart..<closeStart])
            let sigil = triple ? UInt8(ascii: "&") : content.first ?? 0
            let body = triple ? content : trimmed(content.dropFirst(Self.sigils.contains(sigil) ? 1 : 0))
            if Self.standaloneSigils.contains(sigil), let start = lineStart(tagStart),
                let lineEnd = standaloneEnd(tagEnd)
            {
                pending.removeLast(min(pending.count, tagStart - start))
                index = lineEnd
            } else {
                index = tagEnd
            }
            switch sigil {
            case UInt8(ascii: "!"):
                continue
            case UInt8(ascii: "="):
                try setDelimiters(body)
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                let name = try name(body)
                flush()
                guard sections.count <= maxDepth else { throw .tooDeep(maxDepth) }
                sections.append((name, sigil == UInt8(ascii: "^"), []))
            case UInt8(ascii: "/"):
                let text = String(decoding: body, as: UTF8.self)
                flush()
                guard sections.count > 1, let section = sections.popLast(), let name = section.name else {
                    throw .unexpectedClose(text)
                }
                guard name.text == text else { throw .mismatchedClose(opened: name.text, closed: text) }
                sections[sections.count - 1].nodes.append(.section(name, inverted: section.inverted, section.nodes))
            case UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "$"), UInt8(ascii: "%"):
                throw .unsupported(String(decoding: content, as: UTF8.self))
            default:
                let name = try name(body)
                flush()
                sections[sections.count - 1].nodes.append(.variable(name))
            }
        }
        pending.append(contentsOf: bytes[index...])
        flush()
        guard sections.count == 1 else { throw .unclosedSection(sections.last?.name?.text ?? "") }
        return sections[0].nodes
    }

    private static let sigils: Set<UInt8> = Set("!=#^/><$%&".utf8)
    private static let standaloneSigils: Set<UInt8> = Set("!=#^/".utf8)

    private mutating func flush() {
        guard !pending.isEmpty else { return }
        sections[sections.count - 1].nodes.append(.text(pending))
        pending.removeAll()
    }

    private func name(_ body: ArraySlice<UInt8>) throws(TemplateError) -> MustacheName {
        let text = String(decoding: body, as: UTF8.self)
        guard let name = MustacheName(text) else { throw .invalidName(text) }
        return name
    }

    /// `=<% %>=`: the new delimiters, two words without `=` or spaces.
    private mutating func setDelimiters(_ body: ArraySlice<UInt8>) throws(TemplateError) {
        guard body.last == UInt8(ascii: "=") else { throw .invalidDelimiters(String(decoding: body, as: UTF8.self)) }
        let words = body.dropLast().split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        guard words.count == 2, words.allSatisfy({ !$0.contains(UInt8(ascii: "=")) && $0.count <= 8 }) else {
            throw .invalidDelimiters(String(decoding: body.dropLast(), as: UTF8.self))
        }
        open = Array(words[0])
        close = Array(words[1])
    }

    /// Where `needle` starts at or after `start`; nil when it does not.
    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var position = start
        while position + needle.count <= bytes.count {
            if bytes[position] == first, bytes[position..<position + needle.count].elementsEqual(needle) {
                return position
            }
            position += 1
        }
        return nil
    }

    private func trimmed(_ slice: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = slice
        while let first = slice.first, Self.isBlank(first) { slice = slice.dropFirst() }
        while let last = slice.last, Self.isBlank(last) { slice = slice.dropLast() }
        return slice
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The start of the line `position` is on when nothing but spaces and tabs come before it on that line; nil
    /// otherwise. Reads back no further than the end of the last tag (a tag on the line is not blank), so that
    /// parsing stays linear however many tags a line holds.
    private func lineStart(_ position: Int) -> Int? {
        var start = position
        while start > index, bytes[start - 1] != 0x0A {
            guard bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 else { return nil }
            start -= 1
        }
        guard start == 0 || bytes[start - 1] == 0x0A else { return nil }  // the last tag ends on this line
        return start
    }

    /// Where the next line starts when only spaces and tabs follow a tag ending at `tagEnd` on its line (with
    /// ``lineStart(_:)``: the tag is alone on its line); nil when something else does.
    private func standaloneEnd(_ tagEnd: Int) -> Int? {
        var end = tagEnd
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        if end == bytes.count { return end }
        if bytes[end] == 0x0A { return end + 1 }
        if bytes[end] == 0x0D, end + 1 < bytes.count, bytes[end + 1] == 0x0A { return end + 2 }
        return nil
    }
}
