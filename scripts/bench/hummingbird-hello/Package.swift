// swift-tools-version:6.0
// The peer `make bench` measures Switchyard against: Hummingbird's hello world, as its README writes it. Built by
// scripts/bench.sh in its own scratch folder; never a dependency of the product.
import PackageDescription

let package = Package(
    name: "hummingbird-hello",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdHello",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ]
)
