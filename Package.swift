// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Switchyard",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Switchyard", targets: ["Switchyard"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "SwitchyardSessions", targets: ["SwitchyardSessions"]),
        .library(name: "SwitchyardSessionsTesting", targets: ["SwitchyardSessionsTesting"]),
        .library(name: "SwitchyardServer", targets: ["SwitchyardServer"]),
        .library(name: "SQLiteStore", targets: ["SQLiteStore"]),
        .library(name: "PostgresStore", targets: ["PostgresStore"]),
        .library(name: "SwitchyardCommandLine", targets: ["SwitchyardCommandLine"]),
        .library(name: "SwitchyardDefinitions", targets: ["SwitchyardDefinitions"]),
        .library(name: "SwitchyardClient", targets: ["SwitchyardClient"]),
        .library(name: "SwitchyardExplorer", targets: ["SwitchyardExplorer"]),
        .executable(name: "switchyard", targets: ["SwitchyardCLI"]),
        .executable(name: "switchyard-bench", targets: ["SwitchyardBench"]),
        .executable(name: "switchyard-follow", targets: ["SwitchyardFollow"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // JSON: the value type, a one-pass parser, a decoder from values and a fast writer. A leaf.
        .target(name: "SwitchyardJSON"),
        // The navigation engine: coordinators, routes, the state tree. No I/O.
        .target(name: "Switchyard", dependencies: ["SwitchyardJSON"]),
        // GNU libmicrohttpd as a SwiftPM system library (Debian: libmicrohttpd-dev).
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // zlib as a SwiftPM system library (Debian: zlib1g-dev), and the only module that touches its pointers.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .target(name: "Gzip", dependencies: ["CZlib"]),
        // The only module that touches libmicrohttpd's pointers.
        .target(
            name: "MicroHTTP",
            dependencies: ["CMicroHTTPD", "Gzip", .product(name: "Logging", package: "swift-log")]
        ),
        // Sessions of engines: the archive contract and its records, the in-memory archive, the session store and
        // its sync across nodes, the change pipeline, and the app releases (published versions, rollouts,
        // retirement; definitions compiled by what the server passes in). Knows nothing of HTTP, and does not link
        // SwitchyardDefinitions: the stores link this module.
        .target(
            name: "SwitchyardSessions",
            dependencies: ["Switchyard", "SwitchyardJSON", "Gzip", .product(name: "Logging", package: "swift-log")]
        ),
        // The store conformance checks, for anyone writing a store (as HummingbirdTesting is for Hummingbird).
        .target(name: "SwitchyardSessionsTesting", dependencies: ["SwitchyardSessions", "Switchyard"]),
        // The HTTP edge: routing, requests decoded, outcomes and errors rendered, over MicroHTTP.
        .target(
            name: "SwitchyardServer",
            dependencies: [
                "Switchyard", "SwitchyardJSON", "SwitchyardSessions", "SwitchyardDefinitions", "SwitchyardExplorer",
                "MicroHTTP",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The OpenAPI document (docs/openapi.json links here), compiled into the binary: it is served as committed.
            resources: [.embedInCode("openapi.json")]
        ),
        // SQLite as a SwiftPM system library (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // The embedded durable store: the only module that touches SQLite's pointers.
        .target(name: "SQLiteStore", dependencies: ["CSQLite", "SwitchyardSessions", "SwitchyardJSON"]),
        // libpq, PostgreSQL's C client, as a SwiftPM system library (Debian: libpq-dev).
        .systemLibrary(
            name: "CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        // The store several nodes share: the only module that touches libpq's pointers.
        .target(name: "PostgresStore", dependencies: ["CPostgreSQL", "SwitchyardSessions", "SwitchyardJSON"]),
        // A client for apps: follows a session's stream over Foundation's URLSession (FoundationNetworking on Linux).
        // Needs only the JSON module, not the engine.
        .target(name: "SwitchyardClient", dependencies: ["SwitchyardJSON"]),
        // `switchyard-follow URL [SESSION]`: prints a session's visible path live; the Swift client's example.
        .executableTarget(name: "SwitchyardFollow", dependencies: ["SwitchyardClient"], path: "Examples/Follow"),
        // The demo app: ordinary user code of the engine.
        .target(name: "TodoDemo", dependencies: ["Switchyard"]),
        // libyaml as a SwiftPM system library (Debian: libyaml-dev).
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]),
        // YAML read into JSON values from libyaml's events, within limits checked on each event: the only module
        // that touches libyaml's pointers.
        .target(name: "YAMLReader", dependencies: ["CYAML", "SwitchyardJSON"]),
        // Apps declared as data (JSON or YAML): read, checked with JSON Pointers, run by the same engine.
        .target(
            name: "SwitchyardDefinitions",
            dependencies: ["Switchyard", "YAMLReader"]
        ),
        // Exploring an app's graph through the engine, with the suites that cover it: no I/O.
        .target(name: "SwitchyardExplorer", dependencies: ["Switchyard"]),
        // The whole command line (serve, every flag and environment variable, every store, logs) for any apps.
        .target(
            name: "SwitchyardCommandLine",
            dependencies: [
                "Switchyard", "SwitchyardServer", "SwitchyardSessions", "SwitchyardJSON", "SwitchyardDefinitions",
                "SwitchyardExplorer", "MicroHTTP", "SQLiteStore", "PostgresStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `switchyard`: the demo app behind that command line.
        .executableTarget(name: "SwitchyardCLI", dependencies: ["SwitchyardCommandLine", "TodoDemo"]),
        // A program whose app is misdeclared, for the test that a start is refused (Tests/example/check.py).
        .executableTarget(
            name: "MisdeclaredApp", dependencies: ["Switchyard", "SwitchyardCommandLine"], path: "Tests/MisdeclaredApp"),
        // Drives a session with the Swift client for the cluster test of both clients (Tests/cluster/test_clients.py).
        .executableTarget(
            name: "ClientDriver", dependencies: ["SwitchyardClient", "SwitchyardJSON"], path: "Tests/ClientDriver"),
        // Benchmark target for the HTTP transport alone: a trivial JSON endpoint (scripts/bench-http.sh).
        .executableTarget(
            name: "MicroHTTPHello",
            dependencies: ["MicroHTTP", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "SwitchyardBench",
            // HTTPTestSupport: the raw HTTP client the tests use, for the fan-out benchmark's connections.
            dependencies: [
                "Switchyard", "TodoDemo", "SwitchyardServer", "SwitchyardSessions", "MicroHTTP", "SQLiteStore",
                "PostgresStore", "HTTPTestSupport",
            ]
        ),
        // What the test targets share: one raw HTTP client, waiting and recording helpers.
        .target(
            name: "HTTPTestSupport", dependencies: ["MicroHTTP", .product(name: "Logging", package: "swift-log")],
            path: "Tests/HTTPTestSupport"),
        .testTarget(name: "SwitchyardTests", dependencies: ["Switchyard"]),
        // The session layer without HTTP: the change pipeline driven with a renderer of its own.
        .testTarget(
            name: "SwitchyardSessionsTests",
            dependencies: ["SwitchyardSessions", "Switchyard", .product(name: "Logging", package: "swift-log")]),
        .testTarget(
            name: "MicroHTTPTests",
            dependencies: ["MicroHTTP", "Gzip", "HTTPTestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "SwitchyardServerTests",
            dependencies: [
                "SwitchyardServer", "SwitchyardSessions", "SwitchyardSessionsTesting", "SwitchyardCommandLine",
                "Switchyard", "SwitchyardDefinitions", "SwitchyardClient", "SwitchyardExplorer",
                "TodoDemo",
                "MicroHTTP", "HTTPTestSupport",
                "SQLiteStore",
                "PostgresStore", "Gzip", .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]),
        // serve's options: their checks, their sources' precedence, and docs/configuration.md against --help.
        .testTarget(
            name: "SwitchyardCommandLineTests",
            dependencies: [
                "SwitchyardCommandLine", "SwitchyardExplorer", "SwitchyardDefinitions", "Switchyard",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The suite `switchyard paths --format swift` wrote beside its test file, read at run time.
            exclude: ["GeneratedPaths/TrappedPaths.json"]
        ),
        .testTarget(name: "TodoDemoTests", dependencies: ["TodoDemo", "Switchyard", "SwitchyardDefinitions"]),
        .testTarget(name: "SwitchyardDefinitionsTests", dependencies: ["SwitchyardDefinitions", "Switchyard"]),
        .testTarget(
            name: "SwitchyardExplorerTests",
            dependencies: ["SwitchyardExplorer", "Switchyard", "SwitchyardDefinitions", "TodoDemo"]),
    ]
)
