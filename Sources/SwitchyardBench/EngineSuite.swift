import Switchyard
import TodoDemo

/// The in-process engine benchmarks: transitions, deep links, the state document and restore.
struct EngineSuite {
    let harness: Harness

    /// Runs every benchmark, or only those whose id contains `filter`.
    func run(filter: String? = nil) throws -> [Measurement] {
        let all: [(String, () throws -> Measurement)] = [
            ("engine.pushPop.byName", pushPopByName), ("engine.pushPop.typed", pushPopTyped),
            ("engine.pushPop.benchByName", pushPopBenchByName), ("engine.chain4", chain),
            ("engine.deepLink", deepLink), ("engine.state.loggedIn", stateLoggedIn),
            ("engine.state.deep", stateDeep), ("engine.writer.raw", writerRaw), ("engine.writer.safe", writerSafe),
            ("engine.restore.parsed", restoreParsed),
            ("engine.restore.bytes", restoreFromBytes), ("engine.restoreDocument.deep", restoreDocumentDeep),
            ("engine.restore.stored", restoreStored),
        ]
        return try all.filter { filter == nil || $0.0.contains(filter!) }.map { try $0.1() }
    }

    /// `perform([push todo])` then `perform([pop])` on the demo's todos coordinator: one pair per operation.
    func pushPopByName() throws -> Measurement {
        let (engine, _, todos) = try DemoStates.loggedIn()
        let push = [Step(.push(route: "todo", input: "hello-world"))]
        let pop = [Step(.pop)]
        return try harness.measure("engine.pushPop.byName", "push+pop, by name (demo todos)") {
            try engine.perform(push, from: todos)
            try engine.perform(pop, from: todos)
            return engine.version
        }
    }

    /// `push(\.item, id)` then `pop()` through the typed API on a bench-local coordinator.
    func pushPopTyped() throws -> Measurement {
        let coordinator = BenchCoordinator()
        let engine = try NavigationEngine(root: coordinator)
        return try harness.measure("engine.pushPop.typed", "push+pop, typed key paths (bench coordinator)") {
            try coordinator.push(\.item, "hello-world").pop()
            return engine.version
        }
    }

    /// The same push/pop on the bench coordinator by name, to compare with the typed API.
    func pushPopBenchByName() throws -> Measurement {
        let engine = try NavigationEngine(root: BenchCoordinator())
        let node = engine.rootCoordinator.nodeID
        let push = [Step(.push(route: "item", input: "hello-world"))]
        let pop = [Step(.pop)]
        return try harness.measure("engine.pushPop.benchByName", "push+pop, by name (bench coordinator)") {
            try engine.perform(push, from: node)
            try engine.perform(pop, from: node)
            return engine.version
        }
    }

    /// A 4-step chain from the tab coordinator, alternating between two tabs so every chain switches tab, pops and
    /// pushes twice: `[focus todos, popToRoot, push todo, push todo]` / `[focus settings, popToRoot, push, push]`.
    func chain() throws -> Measurement {
        let (engine, tabs, _) = try DemoStates.loggedIn()
        let chains = [
            [
                Step(.focus(route: "todos")), Step(.popToRoot), Step(.push(route: "todo", input: "hello-world")),
                Step(.push(route: "todo", input: "buy-milk")),
            ],
            [
                Step(.focus(route: "settings")), Step(.popToRoot), Step(.push(route: "green")),
                Step(.push(route: "yellow")),
            ],
        ]
        var turn = 0
        return try harness.measure("engine.chain4", "4-step chain from the tabs (focus, popToRoot, push, push)") {
            turn &+= 1
            try engine.perform(chains[turn & 1], from: tabs)
            return engine.version
        }
    }

    /// `open("stinsenapp://todo/buy-milk")` (match, focus todos, pop to root, push) then undo with a pop.
    func deepLink() throws -> Measurement {
        let (engine, _, todos) = try DemoStates.loggedIn()
        let pop = [Step(.pop)]
        return try harness.measure("engine.deepLink", "deep link open + undo (stinsenapp://todo/buy-milk)") {
            try engine.open("stinsenapp://todo/buy-milk")
            try engine.perform(pop, from: todos)
            return engine.version
        }
    }

    /// The state document of a logged-in engine on the todos tab.
    func stateLoggedIn() throws -> Measurement {
        let (engine, _, _) = try DemoStates.loggedIn()
        return harness.measure("engine.state.loggedIn", "state JSON, logged in on todos") {
            engine.stateDocument().count
        }
    }

    /// The state document of the deep demo state.
    func stateDeep() throws -> Measurement {
        let engine = try DemoStates.deep()
        return harness.measure("engine.state.deep", "state JSON, deep state") {
            engine.stateDocument().count
        }
    }

    /// The deep document as a JSON value, written by `JSONWriter` (raw buffer, `memcpy`).
    func writerRaw() throws -> Measurement {
        let document = try JSONValue(parsing: DemoStates.deep().stateDocument())
        return harness.measure("engine.writer.raw", "JSON writer, raw buffer (deep document as a value)") {
            var writer = JSONWriter(capacity: 4096)
            writer.value(document)
            return writer.bytes.count
        }
    }

    /// The same document written by `SafeJSONWriter` (`[UInt8]`, no unsafe code); the output is the same bytes.
    func writerSafe() throws -> Measurement {
        let document = try JSONValue(parsing: DemoStates.deep().stateDocument())
        var raw = JSONWriter(capacity: 4096)
        raw.value(document)
        var safe = SafeJSONWriter(capacity: 4096)
        safe.value(document)
        guard safe.bytes == raw.bytes else { throw BenchError("the safe writer's output differs from JSONWriter's") }
        return harness.measure("engine.writer.safe", "JSON writer, safe [UInt8] (same document, same bytes)") {
            var writer = SafeJSONWriter(capacity: 4096)
            writer.value(document)
            return writer.bytes.count
        }
    }

    /// Restoring the deep state from an already parsed document.
    func restoreParsed() throws -> Measurement {
        let document = try JSONValue(parsing: DemoStates.deep().stateDocument())
        return try harness.measure("engine.restore.parsed", "restore deep state: restoreEngine(from: JSONValue)") {
            try TodoDemo.app.restoreEngine(from: document).version
        }
    }

    /// Restoring the deep state from its JSON bytes (parse + rebuild).
    func restoreFromBytes() throws -> Measurement {
        let bytes = try DemoStates.deep().stateDocument()
        guard try TodoDemo.app.restoreEngine(from: JSONValue(parsing: bytes)).stateDocument() == bytes else {
            throw BenchError("the restored deep state encodes differently from the original")
        }
        return try harness.measure("engine.restore.bytes", "restore deep state from JSON bytes (parse + restore)") {
            try TodoDemo.app.restoreEngine(from: JSONValue(parsing: bytes)).version
        }
    }

    /// The restore document of the deep state (what the store writes per change).
    func restoreDocumentDeep() throws -> Measurement {
        let engine = try DemoStates.deep()
        return try harness.measure("engine.restoreDocument.deep", "restore document, deep state (stored per change)") {
            try engine.restoreDocument().count
        }
    }

    /// Restoring the deep state from its restore document bytes (what a restart pays per session).
    func restoreStored() throws -> Measurement {
        let engine = try DemoStates.deep()
        let bytes = try engine.restoreDocument()
        guard try TodoDemo.app.restoreEngine(from: JSONValue(parsing: bytes)).stateDocument() == engine.stateDocument()
        else {
            throw BenchError("the deep state restored from its restore document encodes differently")
        }
        return try harness.measure("engine.restore.stored", "restore deep state from its restore document bytes") {
            try TodoDemo.app.restoreEngine(from: JSONValue(parsing: bytes)).version
        }
    }
}
