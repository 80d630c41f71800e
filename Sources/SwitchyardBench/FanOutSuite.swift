import Foundation
import HTTPTestSupport
import Switchyard

#if canImport(Glibc)
    import Glibc
#endif

/// SSE fan-out: `subscribers` streams on one demo session, then `transitions` push/pop changes; for each, the time
/// from sending the request (and from receiving its answer) until the last subscriber has the event. One thread
/// reads every stream (`poll`) and decodes the chunked coding itself, so that the client's own cost stays far
/// below the server's (a Python reader took longer to read 1,000 sockets than the server took to write them).
struct FanOutSuite {
    var port: UInt16
    var subscribers: Int
    var transitions: Int
    var updates: String

    /// Streams per source address (127.0.0.2, .3, …): the server allows 64 connections per address.
    static let perAddress = 60

    struct Result: Encodable {
        var subscribers: Int
        var transitions: Int
        var updates: String
        var bytesPerChange: Double
        var eventBytes: Int
        var fromRequestMs: Percentiles
        var fromResponseMs: Percentiles
    }

    func run() throws -> Result {
        let control = try RawConnection(port: port)
        /// A POST whose answer must be 2xx JSON.
        func post(_ path: String, _ body: String?) throws -> JSONValue {
            let answer = try control.exchange("POST", path, body: body)
            guard (200..<300).contains(answer.status) else {
                throw BenchError("POST \(path) answered \(answer.status)")
            }
            return try JSONValue(parsing: answer.body)
        }
        let session = try post("/api/sessions", nil)["session"]?.stringValue ?? ""
        let login =
            #"{"steps":[{"action":"root","route":"authenticated","input":"bench"},{"action":"focus","route":"todos"}]}"#
        let loggedIn = try post("/api/sessions/\(session)/transitions", login)
        let node = loggedIn["result"]?["coordinator"]?.stringValue ?? ""
        let start = Self.int(loggedIn["version"]) ?? 0

        var streams: [StreamReader] = []
        for index in 0..<subscribers {
            let source = "127.0.0.\(2 + index / Self.perAddress)"
            streams.append(
                try StreamReader(
                    port: port, source: source, path: "/api/sessions/\(session)/stream?updates=\(updates)"))
        }
        var watched = streams.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }

        func waitFor(_ version: Int, deadline: Double) throws -> Double {
            var missing = streams.count { $0.lastID < version }
            var last = now()
            while missing > 0 {
                guard now() < deadline else {
                    throw BenchError("\(missing) streams did not get version \(version) in time")
                }
                guard poll(&watched, nfds_t(watched.count), 100) >= 0 else { throw BenchError("poll: errno \(errno)") }
                for index in watched.indices where watched[index].revents != 0 {
                    let reader = streams[index]
                    let before = reader.lastID
                    try reader.read()
                    if before < version, reader.lastID >= version {
                        missing -= 1
                        last = now()
                    }
                }
            }
            return last
        }

        _ = try waitFor(start, deadline: now() + 30)
        let receivedBefore = streams.reduce(0) { $0 + $1.eventBytes }
        var fromRequest: [Double] = []
        var fromResponse: [Double] = []
        var answerBytes = 0
        for index in 0..<transitions {
            let step =
                index % 2 == 0 ? #"{"action":"push","route":"todo","input":"hello-world"}"# : #"{"action":"pop"}"#
            let sent = now()
            let answer = try control.exchange(
                "POST", "/api/sessions/\(session)/transitions", body: #"{"coordinator":"\#(node)","steps":[\#(step)]}"#)
            let answered = now()
            guard answer.status == 200, let version = Self.int((try? JSONValue(parsing: answer.body))?["version"])
            else {
                throw BenchError("a transition answered \(answer.status)")
            }
            answerBytes = answer.body.count
            let last = try waitFor(version, deadline: answered + 10)
            fromRequest.append((last - sent) * 1000)
            fromResponse.append(max(0, last - answered) * 1000)
        }
        let received = streams.reduce(0) { $0 + $1.eventBytes } - receivedBefore
        return Result(
            subscribers: subscribers, transitions: transitions, updates: updates,
            bytesPerChange: Double(received) / Double(subscribers * transitions), eventBytes: answerBytes,
            fromRequestMs: Percentiles(fromRequest), fromResponseMs: Percentiles(fromResponse))
    }

    private static func int(_ value: JSONValue?) -> Int? {
        guard case .number(let number) = value else { return nil }
        return Int(exactly: number)
    }

    private func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
