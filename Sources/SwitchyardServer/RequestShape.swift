import Switchyard

/// The members each object of a request body may have. A member it does not list is refused (400 `unknownMember`)
/// with the members allowed there and the nearest one: a misspelt member is never silently ignored.
indirect enum RequestShape: Sendable {
    /// An object with exactly these members (each optional here; the decoder says which are required).
    case object([String: RequestShape])
    /// An array of one shape.
    case array(RequestShape)
    /// Any JSON: app data (a route's input, an event's payload, a result, field values) and scalars.
    case any

    /// A step: every member a step may have (``Switchyard/Step/memberNames``).
    static let step = RequestShape.object(
        Dictionary(
            uniqueKeysWithValues: Step.memberNames.map { name in
                switch name {
                case "routes": (name, .array(.closed(Step.RouteReference.memberNames)))
                case "actions": (name, .array(.closed(AlertAction.memberNames)))
                default: (name, .any)
                }
            }))

    /// An object with these members, each of any value.
    static func closed(_ names: [String]) -> RequestShape {
        .object(Dictionary(uniqueKeysWithValues: names.map { ($0, .any) }))
    }

    /// This shape with more members (of an object).
    func adding(_ members: [String: RequestShape]) -> RequestShape {
        guard case .object(let own) = self else { return self }
        return .object(own.merging(members) { first, _ in first })
    }

    /// Whether `value` has only members this shape allows: the common case, checked without building paths or
    /// sorting names (``check(_:at:)`` then finds and names the member that is not).
    func allows(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.object(let allowed), .object(let members)):
            members.allSatisfy { name, member in allowed[name]?.allows(member) ?? false }
        case (.array(let element), .array(let items)):
            items.allSatisfy { element.allows($0) }
        default:
            true
        }
    }

    /// Throws 400 `unknownMember` for the first member (in document order of the paths, then by name) that `value`
    /// has where this shape does not allow it. Values of other types than the shape expects pass: the decoder
    /// describes them.
    func check(_ value: JSONValue, at path: String = "") throws {
        switch (self, value) {
        case (.object(let allowed), .object(let members)):
            for name in members.keys.sorted() {
                guard let shape = allowed[name] else {
                    throw Self.unknown(name, at: path, allowed: allowed.keys.sorted())
                }
                try shape.check(members[name] ?? .null, at: path.isEmpty ? name : path + "." + name)
            }
        case (.array(let element), .array(let items)):
            for (index, item) in items.enumerated() { try element.check(item, at: path + "[\(index)]") }
        default:
            return
        }
    }

    private static func unknown(_ name: String, at path: String, allowed: [String]) -> Problem {
        let place = path.isEmpty ? "the body" : "'\(path)'"
        let hint = Spelling.nearest(to: name, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
        return Problem(
            status: 400, code: "unknownMember", title: "Malformed request",
            detail: "unknown member '\(name)' in \(place)\(hint); allowed there: \(allowed.joined(separator: ", "))",
            choices: allowed)
    }
}

/// A request body whose members are checked against its ``RequestShape`` before it is decoded.
protocol StrictRequest: Decodable {
    /// The shape a body of this type may have (it may depend on the body: a transition is one step or a chain).
    static func shape(of value: JSONValue) -> RequestShape
}
