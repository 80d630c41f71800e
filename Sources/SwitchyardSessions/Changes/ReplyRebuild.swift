import Switchyard

/// What rebuilds the answer to a request that committed, without keeping its bytes: the version it reported and
/// how it ended (a change with its `result` members, or a guard's redirect with its error). The answer is the state
/// document (or the summary, or the redirect's problem) of that version: the version's restore document renders
/// byte for byte the document it answered with.
///
/// A store keeps a keyed request's answer in this form (``storedBody``), so that it remembers a key for every
/// request that committed whatever its documents weigh, and a session read back from it, or another node, answers a
/// retry as the first time.
struct ReplyRebuild: Sendable {
    /// How the request ended.
    enum Ending: Sendable {
        /// Committed, or accepted without a version (its answer's `result` members).
        case changed(result: [String: JSONValue])
        /// A route guard sent it elsewhere, and that committed.
        case redirected(NavigationError)
    }

    let version: Int
    let ending: Ending

    init(version: Int, ending: Ending) {
        self.version = version
        self.ending = ending
    }

    /// The body a store keeps for the answer: `{"rebuild":{"version":…,"result":{…}}}` or
    /// `{"rebuild":{"version":…,"redirect":{"code","category","message","choices"}}}`. An answer's own body is a state
    /// document, a summary or a problem, none of which starts with `{"rebuild":`: the two are never mistaken.
    var storedBody: [UInt8] {
        var members: [String: JSONValue] = ["version": .number(Double(version))]
        switch ending {
        case .changed(let result): members["result"] = .object(result)
        case .redirected(let error):
            members["redirect"] = .object([
                "code": .string(error.code), "category": .string(error.category.rawValue),
                "message": .string(error.message), "choices": .array(error.choices.map(JSONValue.string)),
            ])
        }
        return JSONValue.object(["rebuild": .object(members)]).serialized()
    }

    /// The rebuild a stored body holds; nil for a body that is an answer itself.
    init?(storedBody body: [UInt8]) {
        guard body.starts(with: Array(#"{"rebuild":"#.utf8)), let value = try? JSONValue(parsing: body),
            case .object(let members)? = value["rebuild"], case .number(let version)? = members["version"]
        else { return nil }
        if case .object(let result)? = members["result"] {
            self.init(version: Int(version), ending: .changed(result: result))
        } else if case .object(let redirect)? = members["redirect"], case .string(let code)? = redirect["code"],
            case .string(let category)? = redirect["category"],
            let kind = NavigationError.Category(rawValue: category), case .string(let message)? = redirect["message"],
            case .array(let choices)? = redirect["choices"]
        {
            let error = NavigationError(
                code: code, category: kind, message: message, choices: choices.compactMap(\.stringValue))
            self.init(version: Int(version), ending: .redirected(error))
        } else {
            return nil
        }
    }
}
