import Foundation

/// The example definition `Examples/Definitions/mail.json`: a login (an event with a requirement that sets data and
/// switches root), two tabs with a badge counted from the data, a list bound to the data, a guarded compose screen,
/// a picker that finishes with a result, and a deep link that waits for the login.
let mailDefinition: String = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples/Definitions/mail.json")
    return (try? String(contentsOf: file, encoding: .utf8)) ?? "the example definition is missing"
}()
