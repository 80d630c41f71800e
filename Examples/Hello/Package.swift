// swift-tools-version: 6.0
// An app of its own served by Switchyard: its coordinators, its deep links, and the one call that serves them.
import PackageDescription

let package = Package(
    name: "Hello",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Switchyard", path: "../..")],
    targets: [
        .executableTarget(
            name: "Hello",
            dependencies: [
                .product(name: "Switchyard", package: "Switchyard"),
                .product(name: "SwitchyardCommandLine", package: "Switchyard"),
            ]
        )
    ]
)
