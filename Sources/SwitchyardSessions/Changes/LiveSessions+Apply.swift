import Switchyard

/// A change run on an engine: by the change pipeline, and by a preview on a scratch copy.
extension LiveSessions {
    /// Runs `change` on `engine` and returns the members of the answer's `result`.
    func apply(
        _ change: SessionChange, to engine: NavigationEngine, session id: String, app: String
    ) throws -> [String: JSONValue] {
        switch change {
        case .transition(let coordinator, let steps):
            let end = try engine.perform(steps, from: coordinator)
            return [
                "coordinator": .string(end.description), "type": .string(engine.coordinatorType(of: end) ?? ""),
            ]
        case .event(let from, let event):
            guard let sender = from ?? engine.visibleItem?.description else {
                throw ChangeRefusal.malformed("missing member 'from'")
            }
            let handler = try engine.send(event, from: sender)
            return [
                "handledBy": .string(handler.description), "type": .string(engine.coordinatorType(of: handler) ?? ""),
            ]
        case .deepLink(let url):
            let outcome = try engine.open(url)
            return ["deepLink": .string(outcome == .opened ? "opened" : "pending")]
        case .restore(let version):
            let current = engine.version
            guard version <= current else { throw ChangeRefusal.unknownVersion(version, current: current) }
            let saved: [UInt8]
            if version == current {
                saved = try engine.restoreDocument()
            } else {
                guard let found = try restoreDocument(of: id, at: version) else {
                    throw ChangeRefusal.versionNotKept(version)
                }
                saved = found
            }
            do {
                try engine.restore(to: try documentForRestore(saved, running: engine.app))
            } catch let error as NavigationError where error.category != .forbidden && error.redirect == nil {
                // A guard's refusal (`restoreGuarded`), or a redirect met by a result handler, is not an
                // incompatible document: it is answered as it is.
                counters.countIncompatible()
                throw ChangeRefusal.incompatible(error.message)
            }
            return ["restoredFrom": .number(Double(version))]
        }
    }
}
