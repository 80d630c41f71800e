import Switchyard

/// A coordinator declared as data: its kind (`root`, `stack` or `tabs`), where it starts (`initial` and
/// `initialInput`, or `tabs`, `selected` and `addedLater`), its routes and the flow events it handles.
struct CoordinatorDefinition: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case root, stack, tabs

        var coordinatorKind: CoordinatorKind {
            switch self {
            case .root: .root
            case .stack: .navigation
            case .tabs: .tab
            }
        }
    }

    let name: String
    let kind: Kind
    let initial: String?
    let initialInput: JSONValue?
    let tabs: [String]
    let selected: Int
    let addedLater: [String]
    /// In name order.
    let routes: [RouteDefinition]
    /// In name order.
    let events: [EventDefinition]

    static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> CoordinatorDefinition?
    {
        let allowed = ["kind", "initial", "initialInput", "tabs", "selected", "addedLater", "routes", "events"]
        guard let members = reader.object(value, at: pointer, "a coordinator", allowed: allowed, required: ["kind"]),
            let kind = reader.choice(
                members["kind"], at: Pointer.append(pointer, "kind"), "coordinator kind", Kind.allCases.map(\.rawValue)
            ).flatMap(Kind.init(rawValue:))
        else { return nil }
        let tabMembers = ["tabs", "selected", "addedLater"]
        if kind == .tabs {
            for member in ["initial", "initialInput"] where members[member] != nil {
                reader.error(
                    "unknownMember", at: Pointer.append(pointer, member), "a tabs coordinator starts at 'tabs'")
            }
            if members["tabs"] == nil { reader.error("missingMember", at: pointer, "a tabs coordinator needs 'tabs'") }
        } else {
            for member in tabMembers where members[member] != nil {
                reader.error(
                    "unknownMember", at: Pointer.append(pointer, member), "only a tabs coordinator has '\(member)'")
            }
            if members["initial"] == nil {
                reader.error(
                    "missingMember", at: pointer, "a \(kind.rawValue) coordinator needs 'initial' (a root route)")
            }
        }
        func names(_ member: String) -> [String] {
            let at = Pointer.append(pointer, member)
            return reader.array(members[member], at: at, "route names")?.enumerated().compactMap {
                reader.name($1, at: Pointer.append(at, $0), "route name")
            } ?? []
        }
        let routesAt = Pointer.append(pointer, "routes")
        return CoordinatorDefinition(
            name: name, kind: kind,
            initial: reader.name(members["initial"], at: Pointer.append(pointer, "initial"), "route name"),
            initialInput: members["initialInput"], tabs: names("tabs"),
            selected: reader.integer(
                members["selected"], at: Pointer.append(pointer, "selected"), "selected tab", in: 0...1000)
                ?? 0,
            addedLater: names("addedLater"),
            routes: readNamed(members["routes"], at: routesAt, "routes", reader) {
                RouteDefinition.read($0, $1, at: $2, reader)
            },
            events: readNamed(members["events"], at: Pointer.append(pointer, "events"), "events", reader) {
                EventDefinition.read($0, $1, at: $2, reader)
            })
    }
}

/// The members of an object whose keys are names (routes, events, coordinators, screens), each read by `read`, in
/// name order; a key that is not a valid name is reported.
func readNamed<Element>(
    _ value: JSONValue?, at pointer: String, _ what: String, _ reader: DefinitionReader,
    _ read: (String, JSONValue, String) -> Element?
) -> [Element] {
    guard let value else { return [] }
    guard case .object(let members) = value else {
        reader.error(
            "wrongType", at: pointer, "expected an object (\(what), by name), found \(DefinitionReader.kind(of: value))"
        )
        return []
    }
    return members.sorted { $0.key < $1.key }.compactMap { name, member in
        let at = Pointer.append(pointer, name)
        guard DefinitionReader.isName(name) else {
            reader.error(
                "invalidName", at: at, "'\(name)' is not a valid name",
                suggestion: "use letters, digits, '_', '-' or '.', starting with a letter")
            return nil
        }
        return read(name, member, at)
    }
}
