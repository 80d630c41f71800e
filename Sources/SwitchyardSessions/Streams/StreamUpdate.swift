import SwitchyardJSON

/// The frames of one new version for every subscriber: the whole document, and the patch from the version the
/// subscribers have (made once, and only when a subscriber takes patches and the patch is the smaller).
struct StreamUpdate {
    let version: Int
    /// The new document; it keeps what the diff learns of its structure for the next version's diff.
    let document: IndexedJSONText
    /// The document every subscriber has: the last one streamed.
    let base: (version: Int, document: IndexedJSONText)?

    /// The whole document (`event: state`).
    var snapshot: StreamFrame {
        StreamFrame(version: version, kind: .state, data: document.bytes)
    }

    /// The patch from `base` (`event: patch`); nil without a base, for an older version, or when it is larger
    /// than the document.
    func patch() -> StreamFrame? {
        guard let base, base.version < version else { return nil }
        let patch = JSONPatch.diff(
            from: base.document, to: document, testing: [("/version", .number(Double(base.version)))])
        guard patch.count < document.bytes.count else { return nil }
        return StreamFrame(version: version, kind: .patch, data: patch)
    }
}
