import Switchyard

/// A coordinator declared as data: its kind (`root`, `stack` or `tabs`), where it starts (`initial` and
/// `initialInput`, or `tabs`, `selected` and `addedLater`), its routes, the flow events it handles, the names it
/// binds for everything it renders and runs (`let`) and its decoration.
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
    var bindings: [Binding] = []
    var decoration: DecorationDefinition?

    static func read(
        _ name: String, _ value: JSONValue, at pointer: String, _ reader: DefinitionReader
    )
        -> CoordinatorDefinition?
    {
        let allowed = [
            "kind", "initial", "initialInput", "tabs", "selected", "addedLater", "routes", "events", "let",
            "decoration",
        ]
        guard let members = reader.object(value, at: pointer, "a coordinator", allowed: allowed, required: ["kind"])
        else { return nil }
        guard
            let kind = reader.choice(
                members["kind"], at: Pointer.append(pointer, "kind"), "coordinator kind", Kind.allCases.map(\.rawValue)
            ).flatMap(Kind.init(rawValue:))
        else {
            // Without a kind there is no coordinator, but its routes and events are read all the same, so that
            // their own mistakes come in the same round.
            _ = reader.named(members["routes"], at: Pointer.append(pointer, "routes"), "routes") {
                RouteDefinition.read($0, $1, at: $2, reader)
            }
            _ = reader.named(members["events"], at: Pointer.append(pointer, "events"), "events") {
                EventDefinition.read($0, $1, at: $2, reader)
            }
            return nil
        }
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
                    "missingMember", at: pointer,
                    "\(Article.withIndefinite(kind.rawValue)) coordinator needs 'initial' (a root route)")
            }
        }
        func names(_ member: String) -> [String] {
            let at = Pointer.append(pointer, member)
            return reader.array(members[member], at: at, "route names")?.enumerated().compactMap {
                reader.name($1, at: Pointer.append(at, $0), "route name")
            } ?? []
        }
        let routesAt = Pointer.append(pointer, "routes")
        var coordinator = CoordinatorDefinition(
            name: name, kind: kind,
            initial: reader.name(members["initial"], at: Pointer.append(pointer, "initial"), "route name"),
            initialInput: members["initialInput"], tabs: names("tabs"),
            selected: reader.integer(
                members["selected"], at: Pointer.append(pointer, "selected"), "selected tab", in: 0...1000)
                ?? 0,
            addedLater: names("addedLater"),
            routes: reader.named(members["routes"], at: routesAt, "routes") {
                RouteDefinition.read($0, $1, at: $2, reader)
            },
            events: reader.named(members["events"], at: Pointer.append(pointer, "events"), "events") {
                EventDefinition.read($0, $1, at: $2, reader)
            })
        coordinator.bindings = Binding.readAll(members["let"], at: Pointer.append(pointer, "let"), reader)
        coordinator.decoration = members["decoration"].flatMap {
            DecorationDefinition.read($0, at: Pointer.append(pointer, "decoration"), reader)
        }
        return coordinator
    }
}
