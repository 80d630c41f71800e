/// A benchmark could not run as planned (an unexpected answer or state).
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
