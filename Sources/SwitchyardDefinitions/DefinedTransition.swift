import Switchyard

/// A route declared as data, as the engine runs it: its input checked against the declared type, then a screen or
/// a coordinator of the definition made for it; its tab item, guard and result handler from the definition.
enum DefinedTransition {
    static func make(
        _ route: RouteDefinition, in definition: AppDefinition, compiled: CompiledReference
    )
        -> AnyTransition
    {
        let coordinator = definition.coordinator(route.target)
        let result = definition.screen(route.target)?.result.map { type in
            ResultType(name: type.typeName) { value in
                guard type.accepts(value) else {
                    throw NavigationError.invalidInput(
                        route: route.name, expected: type.typeName, reason: "the result is not \(type.rawValue)")
                }
                return value
            }
        }
        let transition = ClosureTransition(
            kind: route.kind, style: route.style, inputTypeName: route.input?.typeName, outputTypeName: route.target,
            outputKind: coordinator?.kind.coordinatorKind, resultType: result,
            factory: { owner, input, name in try make(route, owner: owner, input: input, name: name, compiled: compiled)
            },
            tabItem: { owner in tabItem(route, owner: owner) })
        if let rule = route.guardRule {
            transition.guardCheck = { owner in decide(rule, owner: owner) }
        }
        if let reaction = route.onResult {
            transition.resultHandler = { owner, outcome in
                guard let owner = owner as? any DefinedCoordinator else { return }
                let values: [String: JSONValue] =
                    switch outcome {
                    case .finished(let value): ["result": value as? JSONValue ?? .null, "cancelled": false]
                    case .cancelled: ["result": .null, "cancelled": true]
                    }
                _ = try owner.respond(reaction, values)
            }
        }
        return transition
    }

    private static func make(
        _ route: RouteDefinition, owner: AnyObject, input: JSONValue?, name: String, compiled: CompiledReference
    ) throws -> RouteProduct {
        guard let owner = owner as? any DefinedCoordinator, let compiled = compiled.compiled else {
            throw NavigationError.restoreFailed("route '\(name)' does not belong to \(type(of: owner))")
        }
        let input = input == .null ? nil : input
        switch (route.input, input) {
        case (nil, let value?):
            throw NavigationError.invalidInput(
                route: name, expected: "absent", reason: "this route takes no input, got \(value.jsonString)")
        case (let type?, nil):
            throw NavigationError.invalidInput(route: name, expected: type.typeName, reason: "input missing")
        case (let type?, let value?) where !type.accepts(value):
            throw NavigationError.invalidInput(
                route: name, expected: type.typeName, reason: "expected \(type.rawValue), got \(value.jsonString)")
        default: break
        }
        if let screen = compiled.definition.screen(route.target) {
            return .screen(DefinedScreen(definition: screen, input: input, owner: owner))
        }
        return .coordinator(compiled.makeCoordinator(route.target, input: input, data: owner.context.data))
    }

    private static func tabItem(_ route: RouteDefinition, owner: AnyObject) -> TabItem? {
        guard let item = route.item, let owner = owner as? any DefinedCoordinator else { return nil }
        let scope = owner.templateContext()
        let badge = item.badge?.render(scope)
        return TabItem(
            title: item.title.render(scope), icon: item.icon.render(scope),
            badge: badge?.isEmpty == false ? badge : nil)
    }

    private static func decide(_ rule: GuardDefinition, owner: AnyObject) -> RouteGuardDecision {
        guard let owner = owner as? any DefinedCoordinator else {
            return .refuse(code: "guardMisapplied", message: "\(type(of: owner)) is not a defined coordinator")
        }
        let scope = owner.templateContext()
        if rule.allowIf.holds(in: scope) { return .allow }
        switch rule.otherwise {
        case .refuse(let code, let message):
            return .refuse(code: code, message: message.render(scope))
        case .redirect(let steps):
            do {
                return .redirect(try steps.map { try $0.step(scope) })
            } catch {
                return .refuse(code: "invalidRedirect", message: "the guard's redirect is not valid: \(error)")
            }
        }
    }
}
