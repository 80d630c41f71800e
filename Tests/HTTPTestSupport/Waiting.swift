import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Polls `condition` until it holds or `seconds` pass; returns its last value (never asserts time).
public func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// Polls `condition` until it holds or `seconds` pass, sleeping between tries without holding a thread: for async
/// tests, which share the cooperative pool (as wide as the core count) with every other async test of the run.
public func waitUntil(within seconds: Double = 5, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

/// Runs `body` on a new thread. (Dispatch's global queues are as wide as the core count, and tests block threads:
/// with 2 cores a queued block could wait for the blocked ones.)
public func onNewThread(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(body)
}

/// Runs `body` on a new thread and waits at most `seconds` for it: false if it did not return (a deadlock), so that
/// such a test fails quickly instead of hanging the run. A thread that never returns is left behind.
public func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    onNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// A thread-safe list of values recorded by handlers and callbacks.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    public init() {}
    public func append(_ value: Value) { storage.withLock { $0.append(value) } }
    public var values: [Value] { storage.withLock { $0 } }
}

/// A value shared between threads.
public final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    public init(_ value: Value) { storage = Mutex(value) }
    public var value: Value { storage.withLock { $0 } }
    public func mutate<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { storage.withLock { body(&$0) } }
}
