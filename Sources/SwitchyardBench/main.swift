import Foundation

// switchyard-bench engine [--quick] [--only ID] [--iterations N]  in-process engine timings, JSON on stdout
// switchyard-bench memory [--mode api|engine] [--sessions N]          resident memory per session, JSON on stdout
// switchyard-bench store --data FOLDER [--sessions N]                 fill a SQLite store, time opening and restoring
// switchyard-bench replay --data FOLDER [--sessions N] [--sample N]   fill a SQLite store with recorded demo
//                                                                       sessions, replay a sample (switchyard replay)
// switchyard-bench analytics (--data FOLDER | --database-url URL) [--sessions N] [--versions N] [--reuse]
//                                                                       fill a store, time a funnel over every session
// switchyard-bench fanout --port P [--subscribers N] [--transitions N] [--updates patch|state]
//                                                                       SSE fan-out latency against a running server

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    FileHandle.standardOutput.write(try encoder.encode(value))
    print()
}

/// A required option was not given.
enum BenchUsage: Error {
    case missing(String)
}

do {
    switch arguments.first {
    case "engine":
        var harness = Harness()
        if arguments.contains("--quick") {
            harness.rounds = 5
            harness.roundSeconds = 0.01
            harness.warmupSeconds = 0.02
        }
        harness.fixedIterations = option("--iterations").flatMap { Int($0) }
        try printJSON(try EngineSuite(harness: harness).run(filter: option("--only")))
    case "memory":
        let mode = MemorySuite.Mode(rawValue: option("--mode") ?? "api") ?? .api
        let count = Int(option("--sessions") ?? "") ?? 100_000
        try printJSON(try MemorySuite(mode: mode, count: count).run())
    case "store":
        guard let folder = option("--data") else { throw BenchUsage.missing("--data FOLDER") }
        let count = Int(option("--sessions") ?? "") ?? 100_000
        try printJSON(try StoreSuite(folder: folder, count: count).run())
    case "replay":
        guard let folder = option("--data") else { throw BenchUsage.missing("--data FOLDER") }
        let count = Int(option("--sessions") ?? "") ?? 10_000
        let sample = Int(option("--sample") ?? "") ?? count
        try printJSON(try ReplaySuite(folder: folder, count: count, sample: sample).run())
    case "analytics":
        let store: AnalyticsSuite.Store
        if let url = option("--database-url") {
            store = .postgres(url: url)
        } else if let folder = option("--data") {
            store = .sqlite(folder: folder)
        } else {
            throw BenchUsage.missing("--data FOLDER or --database-url URL")
        }
        var suite = AnalyticsSuite(
            store: store, count: Int(option("--sessions") ?? "") ?? 100_000,
            versions: Int(option("--versions") ?? "") ?? 20)
        suite.reuse = arguments.contains("--reuse")
        try printJSON(try suite.run())
    case "fanout":
        guard let port = option("--port").flatMap({ UInt16($0) }) else { throw BenchUsage.missing("--port P") }
        let suite = FanOutSuite(
            port: port, subscribers: Int(option("--subscribers") ?? "") ?? 1000,
            transitions: Int(option("--transitions") ?? "") ?? 50, updates: option("--updates") ?? "patch")
        try printJSON(try suite.run())
    default:
        let usage =
            "usage: switchyard-bench engine [--quick] [--only ID] [--iterations N] | memory [--mode api|engine] "
            + "[--sessions N] | store --data FOLDER [--sessions N] | replay --data FOLDER [--sessions N] [--sample N] "
            + "| analytics (--data FOLDER | --database-url URL) [--sessions N] [--versions N] | fanout --port P [--subscribers N] "
            + "[--transitions N] [--updates patch|state]\n"
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("switchyard-bench: \(error)\n".utf8))
    exit(1)
}
