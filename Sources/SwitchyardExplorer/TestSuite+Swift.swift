import Switchyard

extension TestSuite {
    /// The name of the Swift Testing suite type ``swiftTestFile(suiteFile:)`` declares: the app's name in upper
    /// camel case, letters and digits only, then `Paths` (`todo-data` → `TodoDataPaths`).
    public var swiftTypeName: String { Self.swiftTypeName(forApp: app.name) }

    /// The suite type's name for an app called `name`: its ASCII letters and digits in upper camel case, `App`
    /// before a leading digit, then `Paths`.
    public static func swiftTypeName(forApp name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isASCII || !($0.isLetter || $0.isNumber) })
        let joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return (joined.first?.isLetter == true ? joined : "App" + joined) + "Paths"
    }

    /// A Swift Testing file that runs this suite in process: the server's API answers the suite's requests without
    /// a socket (``SuiteRunner`` over `InProcessSuiteTransport` of `SwitchyardCommandLine`), each failing step is an
    /// issue naming its case, step, expected and actual path, and the transitions covered must be all of them.
    /// The suite itself is read at run time from `suiteFile` (its JSON, ``json``) beside the test file. The test
    /// target depends on the products `SwitchyardCommandLine` and `SwitchyardExplorer`, and supplies the app in a
    /// file of its own: `extension TypeName { static func app() throws -> NavigationApp { … } }`.
    public func swiftTestFile(suiteFile: String) -> String {
        let type = swiftTypeName
        let literal = { (text: String) in String(decoding: JSONValue.string(text).serialized(), as: UTF8.self) }
        return """
            // \(cases.count) cases covering \(transitions) transitions of \(app), made by `switchyard paths --format swift`.
            // It reads the suite from \(suiteFile) beside it (exclude that file from the test target in Package.swift,
            // `exclude: ["\(suiteFile)"]`, or SwiftPM warns of a file it does not handle). The test target depends on
            // the products SwitchyardCommandLine and SwitchyardExplorer; give it the app in a file of your own:
            //
            //     extension \(type) {
            //         static func app() throws -> NavigationApp { MyApp.app }
            //     }
            import Foundation
            import Switchyard
            import SwitchyardCommandLine
            import SwitchyardExplorer
            import Testing

            @Suite(\(literal("switchyard paths: \(app)")))
            struct \(type) {
                @Test func everyTransitionLandsWhereItWasExplored() throws {
                    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                        .appendingPathComponent(\(literal(suiteFile)))
                    let suite = try TestSuite(contentsOf: file)
                    let transport = try InProcessSuiteTransport(apps: [Self.app()])
                    let result = SuiteRunner(transport: transport, concurrency: 2).run(suite)
                    for failure in result.failures {
                        Issue.record(Comment(rawValue: failure.description))
                    }
                    #expect(result.covered == result.transitions, Comment(rawValue: result.coverageLine))
                }
            }

            """
    }
}
