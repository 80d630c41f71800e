import Switchyard

extension DefinitionReader {
    /// The members of an object whose keys are names (routes, events, coordinators, screens), each read by `read`,
    /// in name order; a key that is not a valid name is reported.
    func named<Element>(
        _ value: JSONValue?, at pointer: String, _ what: String, _ read: (String, JSONValue, String) -> Element?
    ) -> [Element] {
        guard let value else { return [] }
        guard case .object(let members) = value else {
            error(
                "wrongType", at: pointer, "expected an object (\(what), by name), found \(Self.kind(of: value))"
            )
            return []
        }
        return members.sorted { $0.key < $1.key }.compactMap { name, member in
            let at = Pointer.append(pointer, name)
            guard Self.isName(name) else {
                error(
                    "invalidName", at: at, "'\(name)' is not a valid name",
                    suggestion: "use letters, digits, '_', '-' or '.', starting with a letter")
                return nil
            }
            return read(name, member, at)
        }
    }
}
