import ArgumentParser

/// What an option's text must be, said after its source: `must be a duration such as 90s, 30m or 2h`.
struct ArgumentRequirement: Error, Equatable {
    /// The requirement, starting with `must`.
    let text: String

    /// The error a command reports (exit code 64): the requirement after the flag or variable that broke it.
    func refusing(_ source: String) -> ValidationError { ValidationError("\(source) \(text)") }
}
