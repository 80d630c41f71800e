import Foundation
import MicroHTTP
import Switchyard
import SwitchyardSessions

/// The endpoints that change a session: transitions, events, deep links, restores, and their previews. Each
/// decodes its request into a ``ChangeRequest`` before any session lock is taken and hands it to the session layer's
/// pipeline, which answers with what ``SessionReplies`` rendered of the outcome.
extension SwitchyardAPI {
    /// Whether a change request is applied or only previewed.
    enum ChangeMode {
        case apply, preview
    }

    func transitions(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        try run(mode, id, request) {
            let body = try decode(TransitionRequest.self, request.body)
            guard !body.steps.isEmpty else { throw Problem.malformed("'steps' must hold at least one step") }
            return (.transition(coordinator: body.coordinator, steps: body.steps), body.expectedVersion)
        }
    }

    func events(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        try run(mode, id, request) {
            let body = try decode(EventRequest.self, request.body)
            let event = FlowEvent(name: body.name, payload: body.payload ?? .null, fields: body.fields ?? [:])
            return (.event(from: body.from, event), body.expectedVersion)
        }
    }

    func deepLinks(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        try run(mode, id, request) {
            let body = try decode(DeepLinkRequest.self, request.body)
            return (.deepLink(url: body.url), body.expectedVersion)
        }
    }

    /// `POST /api/sessions/{id}/restore`: returns the session to an earlier version (from the store's history) as
    /// a new change: the version grows, the history records it, streams follow.
    func restore(_ id: String, _ request: HTTPRequest, mode: ChangeMode = .apply) throws -> HTTPResponse {
        try run(mode, id, request) {
            let body = try decode(RestoreRequest.self, request.body)
            guard body.version >= 0 else { throw Problem.malformed("'version' must be a version (0 or more)") }
            return (.restore(version: body.version), body.expectedVersion)
        }
    }

    /// Finds the session, decodes the request (`decode` gives the change and its `expectedVersion`), then applies
    /// or previews it.
    private func run(
        _ mode: ChangeMode, _ id: String, _ request: HTTPRequest,
        _ decode: () throws -> (SessionChange, expectedVersion: Int?)
    ) throws -> HTTPResponse {
        let key = request.headers["idempotency-key"]
        // A change with a key reads its session first (another node may have answered the key); one without is
        // checked by its write, or before an answer without one.
        let session =
            key == nil && mode == .apply ? try sessions.sessionToChange(id) : try sessions.session(id, key: key)
        try requireJSON(request)
        // Decoded here, before the session's lock; what cannot be read is answered by the pipeline, after a
        // retried key's replay, and remembered under the key like any answer.
        let decoded = Result { () throws -> (SessionChange, [Int]?) in
            let (change, expected) = try decode()
            return (change, try Self.expectedVersions(expected, request))
        }
        let changeRequest = ChangeRequest(
            decoded.map(\.0), expectedVersions: (try? decoded.get())?.1, key: key,
            fingerprint: key == nil ? 0 : RequestFingerprint.of(request), body: request.body,
            form: Self.prefersMinimalReturn(request) ? .minimal : .full)
        switch mode {
        case .apply:
            return HTTPResponse(changes.apply(changeRequest, to: session).reply)
        case .preview:
            return try sessions.onLiveSession(id, key: key, first: session) { session in
                previewResponse(try sessions.preview(session, changeRequest))
            }
        }
    }

    /// `{"session", "version", "state", "patch", "result"}`: the would-be state document, the JSON Patch (RFC 6902)
    /// from the current one to it, and the change's result.
    private func previewResponse(_ preview: ChangePreview) -> HTTPResponse {
        let patch = JSONPatch.diff(from: preview.current, to: preview.after)
        var writer = JSONWriter(capacity: preview.after.count + 512)
        writer.beginObject()
        writer.member("session", preview.session)
        writer.member("version", preview.version)
        writer.key("state")
        writer.raw(preview.after)
        writer.key("patch")
        writer.raw(patch)
        writer.member("result", .object(preview.result))
        writer.endObject()
        return .json(200, writer.bytes, headers: noStore + [("ETag", "\"\(preview.version)\"")])
    }

    /// `Prefer: return=minimal` (RFC 7240): answer a change with the short document (clients following the stream
    /// already get the full one there).
    static func prefersMinimalReturn(_ request: HTTPRequest) -> Bool {
        guard let prefer = request.headers["prefer"] else { return false }
        // On the bytes: Foundation's trimming cost ~6 % of a minimal transition's CPU.
        return prefer.utf8.split(separator: UInt8(ascii: ",")).contains { preference in
            let token = preference.prefix { $0 != UInt8(ascii: ";") }
            let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            let trimmed = token.drop(while: blank).reversed().drop(while: blank)
            return trimmed.elementsEqual("return=minimal".utf8.reversed()) {
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 == $1 : $0 == $1
            }
        }
    }

    /// The versions a change may apply to: those `If-Match` names, else `expectedVersion`; nil for any.
    private static func expectedVersions(_ expected: Int?, _ request: HTTPRequest) throws -> [Int]? {
        if let expected, expected < 0 {
            throw Problem.malformed("'expectedVersion' must be a version (0 or more)")
        }
        var wanted = expected.map { [$0] }
        if let header = request.headers["if-match"] {
            guard let versions = Self.ifMatchVersions(header) else {
                throw Problem.malformed("If-Match must be * or versions in quotes, e.g. \"7\"")
            }
            if !versions.isEmpty { wanted = versions }
        }
        return wanted
    }

    /// The versions an `If-Match` value names: `*` is none (any version), else a comma-separated list of strong
    /// ETags `"7"`; nil when malformed.
    static func ifMatchVersions(_ header: String) -> [Int]? {
        let blanks = CharacterSet(charactersIn: " \t")
        let value = header.trimmingCharacters(in: blanks)
        if value == "*" { return [] }
        var versions: [Int] = []
        for part in value.split(separator: ",", omittingEmptySubsequences: false) {
            let tag = part.trimmingCharacters(in: blanks)
            guard tag.count >= 3, tag.count <= 17, tag.first == "\"", tag.last == "\"" else { return nil }
            let digits = tag.dropFirst().dropLast()
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let version = Int(digits) else { return nil }
            versions.append(version)
        }
        return versions
    }
}

extension SessionReply {
    /// A response as the session layer keeps it.
    init(_ response: HTTPResponse) {
        guard case .bytes(let body) = response.body else {
            self.init(status: response.status, headers: response.headers)
            return
        }
        self.init(status: response.status, headers: response.headers, body: body)
    }
}

extension HTTPResponse {
    /// A kept answer as a response.
    init(_ reply: SessionReply) {
        self.init(status: reply.status, headers: reply.headers, body: reply.body)
    }
}
