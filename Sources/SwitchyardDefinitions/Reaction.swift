import Switchyard

/// What a flow event or a route's delivered result does, written as one ``Handler`` (its members beside the
/// event's own) or as `"cases": [<handler>, …]`: the first case whose `when` holds runs; when none holds, the event
/// is not handled here (it goes on to the parent coordinators) and a result changes nothing. `let` binds names for
/// every case, before any runs.
struct Reaction: Sendable, Hashable {
    var bindings: [Binding] = []
    var cases: [Handler] = []

    static let members = ["let", "cases"] + Handler.members

    static func read(_ members: [String: JSONValue], at pointer: String, _ reader: DefinitionReader) -> Reaction {
        var reaction = Reaction()
        reaction.bindings = Binding.readAll(members["let"], at: Pointer.append(pointer, "let"), reader)
        guard let cases = members["cases"] else {
            reaction.cases = [Handler.read(members, at: pointer, reader)]
            return reaction
        }
        for member in Handler.members where members[member] != nil {
            reader.error(
                "unknownMember", at: Pointer.append(pointer, member),
                "with 'cases', '\(member)' belongs in a case", suggestion: "move it into each case that needs it")
        }
        let at = Pointer.append(pointer, "cases")
        guard let list = reader.array(cases, at: at, "cases") else { return reaction }
        reaction.cases = list.enumerated().compactMap { index, value in
            let caseAt = Pointer.append(at, index)
            return reader.object(value, at: caseAt, "a case", allowed: Handler.members).map {
                Handler.read($0, at: caseAt, reader)
            }
        }
        return reaction
    }
}
