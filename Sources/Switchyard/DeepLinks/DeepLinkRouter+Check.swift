/// Deep-link declarations that cannot work, for ``NavigationApp/check()``.
extension DeepLinkRouter {
    /// Errors: a pattern that cannot work as written, or that never runs because an earlier one matches every link
    /// it does. Warnings: an example its pattern does not match (left out), or that an earlier pattern takes.
    var diagnostics: [AppDiagnostic] {
        let root = String(describing: Root.self)
        var findings: [AppDiagnostic] = []
        for (index, entry) in entries.enumerated() {
            let text = entry.pattern.text
            for problem in entry.pattern.problems {
                findings.append(
                    AppDiagnostic(
                        .error, "invalidDeepLink", coordinator: root, problem: "deep link '\(text)': \(problem)",
                        fix: "write the pattern as docs/coordinators.md describes (:name, :name(int|bool|uuid), a|b://)"
                    ))
            }
            let earlier = entries[..<index]
            if let shadow = earlier.first(where: { $0.pattern.covers(entry.pattern) }) {
                let equivalent = entry.pattern.covers(shadow.pattern)
                findings.append(
                    AppDiagnostic(
                        .error, "shadowedDeepLink", coordinator: root,
                        problem:
                            "deep link '\(text)' never runs: the earlier '\(shadow.pattern.text)' matches every link it does",
                        fix: equivalent ? "remove one of the two" : "declare '\(text)' before '\(shadow.pattern.text)'")
                )
                continue
            }
            for example in entry.rejectedExamples {
                findings.append(
                    AppDiagnostic(
                        .warning, "exampleNotMatched", coordinator: root,
                        problem:
                            "deep link '\(text)': its example '\(example)' does not match it, so it is not offered",
                        fix: "give an example the pattern matches"))
            }
            for example in entry.examples {
                guard let taker = earlier.first(where: { $0.pattern.match(example) != nil }) else { continue }
                findings.append(
                    AppDiagnostic(
                        .warning, "exampleTakenEarlier", coordinator: root,
                        problem:
                            "deep link '\(text)': its example '\(example)' is opened by the earlier '\(taker.pattern.text)'",
                        fix: "give an example only this pattern matches, or reorder the patterns"))
            }
        }
        return findings
    }
}
