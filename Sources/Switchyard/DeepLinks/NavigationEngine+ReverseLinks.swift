import SwitchyardJSON

/// Reverse routing: which of the app's deep links shows what is on screen.
extension NavigationEngine {
    /// The app's deep link that shows what is on screen now, or nil when none does.
    ///
    /// A link counts when, opened on a copy of this engine taken back to the root of what is on screen (pushed
    /// screens popped, sheets and covers closed), it opens (it is not left pending) and shows the same routes with
    /// the same inputs, presented the same way. The links tried are the router's patterns, in order, with their parameters taken from the
    /// inputs on screen (strings, numbers and booleans, and those of an input's members); a pattern's first example
    /// spells what the pattern leaves open (one of several schemes, a `*` host). Links with more than two parameters
    /// are not tried, nor more than ``reverseRoutingTries`` links in all.
    ///
    /// - Parameter copy: makes an independent copy of this engine (each link is tried on a fresh one).
    public func deepLinkToVisibleScreen(copy: () throws -> NavigationEngine) -> String? {
        guard let deepLinks else { return nil }
        let target = visibleRoutes()
        let values = Self.linkValues(target.compactMap(\.input))
        var tries = 0
        for (pattern, example) in deepLinks.spellings {
            for url in Self.links(of: pattern, example: example, values: values) {
                tries += 1
                guard tries <= Self.reverseRoutingTries, let scratch = try? copy() else { return nil }
                scratch.unwindVisibleScreen()
                guard (try? scratch.open(url)) == .opened, scratch.visibleRoutes() == target else { continue }
                return url
            }
        }
        return nil
    }

    /// How many links reverse routing tries at most (each on a copy of the engine).
    public static let reverseRoutingTries = 24

    /// Routes and inputs along the visible path: what a link must reproduce.
    private func visibleRoutes() -> [VisibleRoute] {
        visibleEntries().map {
            VisibleRoute(route: $0.entry.route, input: $0.entry.input, presentation: $0.entry.presentation)
        }
    }

    /// Pops pushed screens and closes sheets and covers until nothing more can go back: the root of the screen's own
    /// tab or coordinator. Each step is its own transaction. Sheets and covers are closed as code closes them (a
    /// screen's veto on leaving or `dismissible: false` do not stop it: this runs on a copy, to find where a link
    /// starts from); a pop that is refused falls through to closing the presentation under it.
    private func unwindVisibleScreen() {
        for _ in 0..<256 {
            if (try? transaction({ _ = try back() })) != nil { continue }
            let entries = visibleEntries()
            guard let presented = entries.last(where: { $0.entry.presentation?.isPresentation == true }),
                case .stack(let index) = presented.slot,
                (try? transaction({ truncateStack(presented.owner, from: index) })) != nil
            else { return }
        }
    }

    /// Every link of `pattern` with its parameters bound to `values` (each assignment, at most two parameters).
    private static func links(of pattern: DeepLinkPattern, example: String?, values: [String]) -> [String] {
        let names = pattern.parameterNames
        guard names.count <= 2 else { return [] }
        var assignments: [[String: String]] = [[:]]
        for name in names {
            assignments = assignments.flatMap { partial in values.map { partial.merging([name: $0]) { $1 } } }
        }
        return assignments.compactMap { pattern.link($0, like: example) }
    }

    /// The distinct scalar values of `inputs` and of their members, as a link spells them (at most 8).
    private static func linkValues(_ inputs: [JSONValue]) -> [String] {
        var values: [String] = []
        func add(_ value: JSONValue) {
            let text: String?
            switch value {
            case .string(let string): text = string
            case .bool(let bool): text = bool ? "true" : "false"
            case .number(let number): text = number == number.rounded() && abs(number) < 1e15 ? "\(Int(number))" : nil
            case .null, .array, .object: text = nil
            }
            if let text, !text.isEmpty, !values.contains(text) { values.append(text) }
        }
        for input in inputs {
            add(input)
            if case .object(let members) = input { members.keys.sorted().compactMap { members[$0] }.forEach(add) }
        }
        return Array(values.prefix(8))
    }
}

/// One entry of the visible path as a link must reproduce it.
private struct VisibleRoute: Equatable {
    let route: String
    let input: JSONValue?
    /// Pushed, a sheet or a cover: the same screen presented another way is another state.
    let presentation: Presentation?
}
