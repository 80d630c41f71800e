/// The catalog: every coordinator type of an app, found by exploring its routes (``exploredCoordinators()``).
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
        let types = exploredCoordinators().map { explored in
            let coordinator = explored.coordinator
            let routes = explored.routes.map { found in
                let transition = found.transition
                var route: [String: JSONValue] = [
                    "name": .string(found.name), "kind": .string(transition.kind.rawValue),
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
                route["input"] = found.schema
                route["explored"] = .bool(found.product != nil)
                return JSONValue.object(route)
            }
            return JSONValue.object([
                "type": .string(explored.table.typeName), "kind": .string(coordinator.binding.kind.rawValue),
                "routes": .array(routes), "events": .array(coordinator.declaredEvents.map(\.catalogEntry)),
            ])
        }
        return .object([
            "app": .string(name), "version": .number(Double(version)), "coordinators": .array(types),
            "deepLinks": .array(deepLinkPatterns.map { .string($0) }),
            "deepLinkExamples": .array(deepLinkExamples.map { .string($0) }),
        ])
    }
}
