import Switchyard

extension ExplorationReport {
    /// The report for tools: `{app, counts, limitsReached, assumed, failures, routes, traps, neverEntered,
    /// eventsNeverAccepted, deepLinksFailing, errors}`.
    public var json: JSONValue {
        let placeJSON = { (place: Place) -> [String: JSONValue] in
            var members: [String: JSONValue] = [
                "coordinator": .string(place.coordinator), "route": .string(place.route),
            ]
            if let pointer = place.pointer { members["pointer"] = .string(pointer) }
            return members
        }
        let strings = { (values: [String]) in JSONValue.array(values.map { .string($0) }) }
        return [
            "app": ["name": .string(graph.app.name), "version": .number(Double(graph.app.version))],
            "counts": [
                "states": .number(Double(graph.states.count)), "transitions": .number(Double(graph.transitions.count)),
                "actionsTried": .number(Double(graph.edges.count)),
                "transitionsByOrigin": .object(
                    Dictionary(grouping: graph.transitions, by: { graph.edges[$0].action.origin.rawValue })
                        .mapValues { .number(Double($0.count)) }),
                "seconds": .number((graph.seconds * 1000).rounded() / 1000),
            ],
            "limitsReached": strings(graph.limitsReached), "assumed": strings(graph.assumed),
            "failures": strings(graph.failures),
            "routes": .array(
                reached.map { route in
                    var members = placeJSON(route.place)
                    members["way"] = strings(route.way)
                    if let link = route.deepLink { members["deepLink"] = .string(link) }
                    return .object(members)
                }),
            "traps": .array(
                traps.map { trap in
                    var members = placeJSON(trap.place)
                    members["visiblePath"] = strings(trap.visiblePath)
                    members["way"] = strings(trap.way)
                    return .object(members)
                }),
            "neverEntered": .array(
                neverEntered.map { route in
                    var members = placeJSON(route.place)
                    members["reason"] = .string(route.reason)
                    return .object(members)
                }),
            "eventsNeverAccepted": strings(eventsNeverAccepted),
            "deepLinksFailing": .array(
                deepLinksFailing.map { ["url": .string($0.url), "codes": strings($0.codes)] }),
            "errors": .number(Double(traps.count + neverEntered.count)),
        ]
    }

    /// The report for people: counts, then errors, warnings and every route with its shortest way.
    public var text: String {
        var lines = [
            "\(graph.app): \(graph.states.count) states, \(graph.transitions.count) transitions "
                + "(\(graph.edges.count) actions tried) in \(Self.seconds(graph.seconds))"
        ]
        if !graph.limitsReached.isEmpty {
            lines.append(
                "partial: stopped at \(graph.limitsReached.joined(separator: ", ")) (see --max-states, "
                    + "--max-depth, --time-limit)")
        }
        for trap in traps {
            lines.append(
                "error: trap at \(Self.describe(trap.place)): no control, alert, gesture or tab leads out of "
                    + "\(trap.visiblePath.joined(separator: "/")) (reached by: \(Self.way(trap.way)))")
        }
        for route in neverEntered {
            lines.append("error: \(Self.describe(route.place)) is never entered: \(route.reason)")
        }
        for event in eventsNeverAccepted {
            lines.append("warning: the event '\(event)' is declared, but no explored state accepted it")
        }
        for link in deepLinksFailing {
            lines.append(
                "warning: the deep link '\(link.url)' fails from every state (\(link.codes.joined(separator: ", ")))")
        }
        for failure in graph.failures { lines.append("warning: app code failed: \(failure)") }
        for assumption in graph.assumed { lines.append("assumed: \(assumption)") }
        lines.append("routes reached (\(reached.count)):")
        for route in reached {
            let link = route.deepLink.map { "  [deep link: \($0)]" } ?? ""
            lines.append("  \(Self.describe(route.place)): \(Self.way(route.way))\(link)")
        }
        lines.append(hasErrors ? "\(traps.count + neverEntered.count) error(s)" : "no errors")
        return lines.joined(separator: "\n")
    }

    private static func describe(_ place: Place) -> String {
        "\(place.coordinator).\(place.route)" + (place.pointer.map { " (\($0))" } ?? "")
    }

    private static func way(_ labels: [String]) -> String {
        labels.isEmpty ? "the start" : labels.joined(separator: " → ")
    }

    private static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - String(milliseconds % 1000).count))"
            + "\(milliseconds % 1000) s"
    }
}
