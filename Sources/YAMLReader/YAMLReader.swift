internal import CYAML
public import SwitchyardJSON

/// Reads YAML into a JSON value, driving libyaml's event parser one event at a time: the only module that touches
/// libyaml's pointers.
///
/// libyaml parses with explicit stacks, never recursion, and this reader builds the value from its events
/// (``YAMLTreeBuilder``) with every bound of ``JSONLimits`` checked as each event arrives: nesting, the count of
/// values, the length of each scalar. Anchors and aliases are refused on sight, so nothing is ever expanded. A text
/// past a bound costs only the events read up to it.
public enum YAMLReader {
    /// The JSON value of `text`, a single YAML document; why not, with where.
    public static func read(_ text: String, limits: JSONLimits) -> Result<JSONValue, YAMLFailure> {
        var positions: [String: SourcePosition]?
        return read(text, limits: limits, positions: &positions)
    }

    /// Where each value of `text` starts (its line and column, from 1), by JSON Pointer: what lets a finding about
    /// `/screens/Home/title` name its place in the file. Empty when the text is not read (``read(_:limits:)``).
    public static func positions(_ text: String, limits: JSONLimits) -> [String: SourcePosition] {
        var positions: [String: SourcePosition]? = [:]
        _ = read(text, limits: limits, positions: &positions)
        return positions ?? [:]
    }

    private static func read(
        _ text: String, limits: JSONLimits, positions: inout [String: SourcePosition]?
    ) -> Result<JSONValue, YAMLFailure> {
        var utf8 = Array(text.utf8)
        if utf8.isEmpty { utf8 = [0x0A] }  // libyaml reads from a pointer, which an empty array may not have
        return utf8.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                return .failure(YAMLFailure(.syntax("the YAML parser could not start"), at: "", line: 1, column: 1))
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return read(&parser, limits: limits, positions: &positions)
        }
    }

    private static func read(
        _ parser: inout yaml_parser_t, limits: JSONLimits, positions: inout [String: SourcePosition]?
    ) -> Result<JSONValue, YAMLFailure> {
        var builder = YAMLTreeBuilder(limits: limits)
        var documents = 0
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else {
                return .failure(syntaxFailure(parser, at: builder.pointer))
            }
            defer { yaml_event_delete(&event) }
            let mark = event.start_mark
            func failure(_ reason: YAMLFailure.Reason) -> Result<JSONValue, YAMLFailure> {
                .failure(
                    YAMLFailure(reason, at: builder.pointer, line: Int(mark.line) + 1, column: Int(mark.column) + 1))
            }
            var refusal: YAMLFailure.Reason?
            if positions != nil, !builder.expectsKey, Self.startsValue(event.type) {
                let pointer = builder.pointer
                if positions?[pointer] == nil {
                    positions?[pointer] = SourcePosition(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
                }
            }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                guard let root = builder.root else { return failure(.empty) }
                return .success(root)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 { return failure(.severalDocuments) }
            case YAML_ALIAS_EVENT:
                refusal = .aliasNotAllowed("*" + text(event.data.alias.anchor))
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                if let anchor = scalar.anchor { return failure(.aliasNotAllowed("&" + text(anchor))) }
                let value = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                if builder.expectsKey {
                    refusal = builder.key(value)
                } else {
                    switch resolve(value, tag: scalar.tag.map(text), plain: scalar.style == YAML_PLAIN_SCALAR_STYLE) {
                    case .success(let resolved): refusal = builder.scalar(resolved)
                    case .failure(let reason): refusal = reason
                    }
                }
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let (anchor, tag) =
                    isMapping
                    ? (event.data.mapping_start.anchor, event.data.mapping_start.tag)
                    : (event.data.sequence_start.anchor, event.data.sequence_start.tag)
                if let anchor { return failure(.aliasNotAllowed("&" + text(anchor))) }
                if builder.expectsKey { return failure(.keyNotScalar) }
                if let tag = tag.map(text), tag != "!", tag != "tag:yaml.org,2002:" + (isMapping ? "map" : "seq") {
                    return failure(.unsupportedTag(tag))
                }
                refusal = builder.open(mapping: isMapping)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                builder.close()
            default:
                break
            }
            if let refusal { return failure(refusal) }
        }
    }

    /// Whether an event of this type begins a value (a scalar, a sequence, a mapping).
    private static func startsValue(_ type: yaml_event_type_t) -> Bool {
        type == YAML_SCALAR_EVENT || type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT
    }

    /// A scalar's value: a plain one by the core schema, a tagged one by its tag, a quoted one as text.
    private static func resolve(_ text: String, tag: String?, plain: Bool) -> Result<JSONValue, YAMLFailure.Reason> {
        if let tag { return YAMLScalar.tagged(text, tag: tag) }
        return .success(plain ? YAMLScalar.plain(text) : .string(text))
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>) -> String {
        String(cString: pointer)
    }

    private static func syntaxFailure(_ parser: yaml_parser_t, at pointer: String) -> YAMLFailure {
        let problem = parser.problem.map { String(cString: $0) } ?? "the text is not YAML"
        let context = parser.context.map { String(cString: $0) + ": " } ?? ""
        return YAMLFailure(
            .syntax(context + problem), at: pointer, line: Int(parser.problem_mark.line) + 1,
            column: Int(parser.problem_mark.column) + 1)
    }
}
