/// The catalog: every coordinator type of an app, found by exploring its routes.
extension NavigationApp {
    /// Describes every coordinator type reachable from the app's root: kind, routes (name, kind, presentation,
    /// input type and JSON schema, output, whether a guard decides who may enter it, the type of the result it gives
    /// back) and the flow events it declares (``Coordinatable/events``); and the deep-link patterns with example
    /// links.
    ///
    /// Types are found by calling route factories on throw-away coordinators with a sample input (the first of
    /// `null`, `""`, `0`, `false`, `{}`, `[]` that decodes); a route whose input has required members cannot be
    /// explored this way and is listed with `"explored": false`.
    public func catalog() -> JSONValue {
        var queue: [any Coordinatable] = [makeRoot()]
        var seen: Set<String> = []
        var types: [JSONValue] = []
        while !queue.isEmpty {
            let coordinator = queue.removeFirst()
            let table = RouteTable.of(coordinator)
            guard seen.insert(table.typeName).inserted else { continue }
            var routes: [JSONValue] = []
            for name in table.order {
                guard let transition = table.routes[name] else { continue }
                var route: [String: JSONValue] = [
                    "name": .string(name), "kind": .string(transition.kind.rawValue),
                    "output": .string(transition.outputTypeName),
                    "outputKind": .string(transition.producesCoordinator ? "coordinator" : "screen"),
                ]
                if transition.kind == .route {
                    route["presentation"] = .string(transition.style.presentation.rawValue)
                    route["dismissible"] = .bool(transition.style.dismissible)
                }
                route["inputType"] = transition.inputTypeName.map { .string($0) } ?? .null
                route["guarded"] = .bool(transition.guardCheck != nil)
                if let result = transition.resultType { route["returns"] = .string(result.name) }
                let explored = Self.explore(transition, owner: coordinator, route: name)
                route["input"] = explored.schema
                route["explored"] = .bool(explored.product != nil)
                if case .coordinator(let child)? = explored.product { queue.append(child) }
                routes.append(.object(route))
            }
            types.append(
                .object([
                    "type": .string(table.typeName), "kind": .string(coordinator.binding.kind.rawValue),
                    "routes": .array(routes), "events": .array(type(of: coordinator).events.map(\.catalogEntry)),
                ]))
        }
        return .object([
            "app": .string(name), "coordinators": .array(types),
            "deepLinks": .array(deepLinkPatterns.map { .string($0) }),
            "deepLinkExamples": .array(deepLinkExamples.map { .string($0) }),
        ])
    }

    static func explore(
        _ transition: AnyTransition, owner: AnyObject, route: String
    ) -> (
        schema: JSONValue, product: RouteProduct?
    ) {
        if transition.inputTypeName == nil {
            return (.null, try? transition.make(owner: owner, input: nil, route: route))
        }
        let samples: [(JSONValue, JSONValue)] = [
            ("", ["type": "string"]), (0, ["type": transition.inputTypeName == "Int" ? "integer" : "number"]),
            (false, ["type": "boolean"]), ([:], ["type": "object"]), ([], ["type": "array"]),
        ]
        for (sample, schema) in samples {
            if let product = try? transition.make(owner: owner, input: sample, route: route) {
                return (schema, product)
            }
        }
        return (["type": "object"], nil)
    }
}
