/// One coordinator type reached from an app's root, and what exploring each of its routes found.
struct ExploredCoordinator {
    /// One route: its transition, the JSON Schema of the input it was made with, and what it made (nil: it could not
    /// be made with any sample input).
    struct Route {
        let name: String
        let transition: AnyTransition
        let schema: JSONValue
        let product: RouteProduct?
    }

    /// A throw-away instance of the type.
    let coordinator: any Coordinatable
    let table: RouteTable
    /// Its routes, in declaration order.
    let routes: [Route]
}

/// Finding every coordinator type of an app, for the catalog and the check.
extension NavigationApp {
    /// Every coordinator type reachable from the app's root, root first, each once.
    ///
    /// Types are found by calling route factories on throw-away coordinators with a sample input (the first of
    /// `null`, `""`, `0`, `false`, `{}`, `[]` that decodes); a route whose input has required members cannot be
    /// explored this way.
    func exploredCoordinators() -> [ExploredCoordinator] {
        var queue: [any Coordinatable] = [makeRoot()]
        var seen: Set<String> = []
        var found: [ExploredCoordinator] = []
        while !queue.isEmpty {
            let coordinator = queue.removeFirst()
            let table = RouteTable.of(coordinator)
            guard seen.insert(table.typeName).inserted else { continue }
            let routes = table.order.compactMap { name -> ExploredCoordinator.Route? in
                guard let transition = table.routes[name] else { return nil }
                let (schema, product) = Self.explore(transition, owner: coordinator, route: name)
                if case .coordinator(let child)? = product { queue.append(child) }
                return ExploredCoordinator.Route(name: name, transition: transition, schema: schema, product: product)
            }
            found.append(ExploredCoordinator(coordinator: coordinator, table: table, routes: routes))
        }
        return found
    }

    private static func explore(
        _ transition: AnyTransition, owner: AnyObject, route: String
    ) -> (schema: JSONValue, product: RouteProduct?) {
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
