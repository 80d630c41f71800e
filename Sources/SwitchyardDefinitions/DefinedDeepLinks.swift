import Switchyard

/// The deep links of a definition as a `DeepLinkRouter`: each pattern's steps from the root coordinator, pending
/// while its `waitUntil` does not hold.
enum DefinedDeepLinks {
    static func router<Root: DefinedCoordinator>(_ links: [DeepLinkDefinition]) -> DeepLinkRouter<Root> {
        links.reduce(DeepLinkRouter<Root>()) { router, link in
            router.route(link.pattern, examples: link.examples) { root, opened in
                var parameters = opened.parameters.mapValues { JSONValue.string($0) }
                for (name, value) in opened.query where parameters[name] == nil { parameters[name] = .string(value) }
                let scope = root.templateContext(["link": .object(parameters)])
                if let failed = link.requirements.first(where: { !$0.condition.holds(in: scope) }) {
                    throw NavigationError.deepLinkUnresolved(opened.url, reason: failed.reason.render(scope))
                }
                if let waitUntil = link.waitUntil, !waitUntil.holds(in: scope) { return .pending }
                guard let engine = root.engine, let nodeID = root.nodeID else { return .pending }
                let steps = try link.steps.map { try $0.step(scope) }
                try scope.requireWithinBudget()
                try engine.perform(steps, from: nodeID)
                return .opened
            }
        }
    }
}
