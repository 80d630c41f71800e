// 2 cases covering 7 transitions of trapped@1, made by `switchyard paths --format swift`.
// It reads the suite from TrappedPaths.json beside it (exclude that file from the test target in Package.swift,
// `exclude: ["TrappedPaths.json"]`, or SwiftPM warns of a file it does not handle). The test target depends on
// the products SwitchyardCommandLine and SwitchyardExplorer; give it the app in a file of your own:
//
//     extension TrappedPaths {
//         static func app() throws -> NavigationApp { MyApp.app }
//     }
import Foundation
import Switchyard
import SwitchyardCommandLine
import SwitchyardExplorer
import Testing

@Suite("switchyard paths: trapped@1")
struct TrappedPaths {
    @Test func everyTransitionLandsWhereItWasExplored() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("TrappedPaths.json")
        let suite = try TestSuite(contentsOf: file)
        let transport = try InProcessSuiteTransport(apps: [Self.app()])
        let result = SuiteRunner(transport: transport, concurrency: 2).run(suite)
        for failure in result.failures {
            Issue.record(Comment(rawValue: failure.description))
        }
        #expect(result.covered == result.transitions, Comment(rawValue: result.coverageLine))
    }
}
