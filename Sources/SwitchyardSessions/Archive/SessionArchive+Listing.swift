/// Going over the stored sessions of some apps, a page of ids at a time: what a migration pass, a reload's check and
/// a replay share.
extension SessionArchive {
    /// How many ids each read of ``SessionArchive/sessionIDs(ofApp:after:limit:)`` asks for.
    package static var listingPage: Int { 500 }

    /// Calls `body` with the id and app of every stored session of `apps` (in app name, then id order), until it
    /// returns a failure; that failure, or the store's if it fails. Only ids are held, a page at a time.
    package func forEachStoredSession(of apps: Set<String>, _ body: (String, String) -> String?) -> String? {
        for name in apps.sorted() {
            var after: String?
            while true {
                let ids: [String]
                do {
                    ids = try sessionIDs(ofApp: name, after: after, limit: Self.listingPage)
                } catch {
                    return "the store could not list the sessions of '\(name)': \(error)"
                }
                for id in ids {
                    if let failure = body(id, name) { return failure }
                }
                guard let last = ids.last, ids.count == Self.listingPage else { break }
                after = last
            }
        }
        return nil
    }
}
