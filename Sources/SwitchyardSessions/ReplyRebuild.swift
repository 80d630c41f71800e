import Switchyard

/// What rebuilds the answer to a successful change without keeping its bytes: the version it reported and its
/// `result` members. The answer is the state document (or the summary) of that version with those members: the
/// version's restore document renders byte for byte the document it answered with.
///
/// A store keeps a keyed change's answer in this form (``storedBody``), so that it remembers a key for every change
/// whatever the documents weigh, and a session read back from it, or another node, answers a retry as the first
/// time.
struct ReplyRebuild: Sendable {
    let version: Int
    let result: [String: JSONValue]

    /// The body a store keeps for the answer: `{"rebuild":{"version":…,"result":{…}}}`. An answer's own body is a
    /// state document or summary, which starts with `{"session":`: the two are never mistaken.
    var storedBody: [UInt8] {
        JSONValue.object(["rebuild": .object(["version": .number(Double(version)), "result": .object(result)])])
            .serialized()
    }

    /// The rebuild a stored body holds; nil for a body that is an answer itself.
    init?(storedBody body: [UInt8]) {
        guard body.starts(with: Array(#"{"rebuild":"#.utf8)), let value = try? JSONValue(parsing: body),
            case .object(let members)? = value["rebuild"], case .number(let version)? = members["version"],
            case .object(let result)? = members["result"]
        else { return nil }
        self.init(version: Int(version), result: result)
    }

    init(version: Int, result: [String: JSONValue]) {
        self.version = version
        self.result = result
    }
}
