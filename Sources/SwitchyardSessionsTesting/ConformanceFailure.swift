import Foundation
import SwitchyardSessions

/// What an ``ArchiveConformance`` check found to differ from the contract, and where.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was expected.
    public let message: String
    /// The line of the check that found it.
    public let line: Int

    init(_ message: String, line: Int = #line) {
        self.message = message
        self.line = line
    }

    public var description: String { "\(message) (ArchiveConformance.swift:\(line))" }
}

/// Throws unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String = "", line: Int = #line) throws {
    guard !condition else { return }
    let text = message()
    throw ConformanceFailure(text.isEmpty ? "expectation failed" : text, line: line)
}

/// The value, or a failure when there is none.
func require<Value>(_ value: Value?, line: Int = #line) throws -> Value {
    guard let value else { throw ConformanceFailure("a value was required", line: line) }
    return value
}

/// Throws unless `body` throws an ``ArchiveError`` that `matches`.
func expectThrowing(
    _ matches: (ArchiveError) -> Bool = { _ in true }, line: Int = #line, _ body: () throws -> Void
) throws {
    do {
        try body()
    } catch let error as ArchiveError {
        guard matches(error) else { throw ConformanceFailure("threw \(error), not the error expected", line: line) }
        return
    }
    throw ConformanceFailure("nothing was thrown; an ArchiveError was expected", line: line)
}

/// Whether an archive error is a conflict.
func isConflict(_ error: ArchiveError) -> Bool {
    if case .conflict = error { return true }
    return false
}

/// Whether `condition` holds within `seconds` (polled).
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}
