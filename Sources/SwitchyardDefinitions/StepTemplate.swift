import Switchyard

/// A step of a chain as the API takes it (`{"action": "push", "route": "todo", "input": "{{item.id}}"}`), its
/// strings templates, rendered when the chain runs.
struct StepTemplate: Sendable, Hashable {
    let json: JSONTemplate
    /// The step as written, to check names against: its action and route.
    let action: String
    let route: String?
    /// The step, decoded once, when no template of it reads the context (most steps): a screen's render asks for
    /// its actions' steps every time, and decoding them was a third of rendering a screen declared as data.
    let constant: Step?

    /// The step in `context`.
    func step(_ context: TemplateContext) throws -> Step {
        if let constant { return constant }
        return try json.value(context).decode(Step.self)
    }

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> StepTemplate? {
        guard
            let members = reader.object(value, at: pointer, "a step", allowed: Step.memberNames, required: ["action"]),
            let json = JSONTemplate.read(.object(members), at: pointer, reader)
        else { return nil }
        // Checked as written (a template stands where a string goes), so a wrong action or member is found now.
        var written = json.written
        if case .object(var object) = written, let input = object["input"], case .string = input {
            object["input"] = .string("")
            written = .object(object)
        }
        do {
            _ = try written.decode(Step.self)
        } catch {
            reader.error("invalidStep", at: pointer, "the step is not valid: \(error)")
            return nil
        }
        return StepTemplate(
            json: json, action: members["action"]?.stringValue ?? "", route: members["route"]?.stringValue,
            constant: json.isConstant ? try? json.written.decode(Step.self) : nil)
    }

    static func readList(_ value: JSONValue?, at pointer: String, _ reader: DefinitionReader) -> [StepTemplate] {
        guard let list = reader.array(value, at: pointer, "steps") else { return [] }
        return list.enumerated().compactMap { read($1, at: Pointer.append(pointer, $0), reader) }
    }
}
