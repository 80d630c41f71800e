import Foundation
import Switchyard
import SwitchyardDefinitions

/// The app the generated `TrappedPaths` runs on, as a test target that uses `switchyard paths --format swift`
/// supplies it: here the fixture of Tests/explore.
extension TrappedPaths {
    static func app() throws -> NavigationApp {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../explore/trap.yaml").standardized
        return try NavigationApp(definition: String(contentsOf: file, encoding: .utf8), format: .yaml)
    }
}
