// The sample of docs/app-versions.md, compiled here (see Tests/SwitchyardTests/DocSnippetCheckTests.swift) and run by
// AppVersionTests.theDocumentedConfigurationServesTheSplit.
import Switchyard
import SwitchyardServer
import SwitchyardSessions

func documentedVersionConfiguration() throws -> ServerConfiguration {
    // snippet: versions
    let v1 = NavigationApp(name: "shop", root: { ShopV1() })
    let v2 = NavigationApp(
        name: "shop", version: 2, root: { ShopV2() },
        migrations: [
            AppMigration(from: 1)
                .renamingCoordinator("ShopV1", to: "ShopV2")
                .renamingRoute("detail", to: "item", in: "ShopV1")
                .removingRoute("legacy", in: "ShopV1", landing: .below)
        ])
    var configuration = ServerConfiguration(apps: [v1, v2])
    // A split: 9 in 10 new sessions on version 1. Without it, version 2 takes every new session and version 1's
    // sessions migrate as they are next read.
    configuration.rollouts = [try AppRollout.parse("shop=1:90,2:10").get()]
    // end snippet
    return configuration
}
