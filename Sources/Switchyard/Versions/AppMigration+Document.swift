/// Applying a migration to a restore document.
extension AppMigration {
    /// `document` (a restore document of version ``from``) as `target` stores it: coordinators and routes renamed,
    /// removed routes landed, data reshaped, and `app` naming `target`. A pending route the migration touches, or
    /// that waits in a document where a removed route took entries away, is dropped (its guard is asked again when
    /// the user next goes there). The session's version is left as it was.
    ///
    /// - Throws: ``NavigationError/restoreFailed(_:)`` naming what cannot be migrated.
    public func migrate(_ document: JSONValue, to target: AppVersion) throws(NavigationError) -> JSONValue {
        guard var members = document.objectValue, let tree = members["tree"] else {
            throw .restoreFailed("the document has no tree")
        }
        var dropped = false
        members["tree"] = try migrateNode(tree, dropped: &dropped)
        members["app"] = target.json
        if let pending = members["pendingRoute"], dropped || touches(pending) { members["pendingRoute"] = nil }
        return .object(members)
    }

    /// The node as migrated; `dropped` becomes true when a removed route took entries away.
    private func migrateNode(_ json: JSONValue, dropped: inout Bool) throws(NavigationError) -> JSONValue {
        guard var node = json.objectValue, case .string(let type)? = node["type"] else {
            throw .restoreFailed("a node has no type")
        }
        if let root = node["root"] {
            node["root"] = try migrateEntry(
                root, of: type, dropping: "it is the root route of \(type)", dropped: &dropped)
        }
        if case .array(let stack)? = node["stack"] {
            var kept: [JSONValue] = []
            for entry in stack {
                guard let migrated = try migrateEntry(entry, of: type, dropping: nil, dropped: &dropped) else {
                    dropped = true
                    break
                }
                kept.append(migrated)
            }
            node["stack"] = .array(kept)
        }
        if case .array(let tabs)? = node["tabs"] {
            var kept: [JSONValue] = []
            for tab in tabs {
                if let migrated = try migrateEntry(tab, of: type, dropping: nil, dropped: &dropped) {
                    kept.append(migrated)
                } else {
                    dropped = true
                }
            }
            guard let first = kept.first?["id"] else { throw .restoreFailed("every tab of \(type) was removed") }
            node["tabs"] = .array(kept)
            if let selected = node["selectedTabId"], !kept.contains(where: { $0["id"] == selected }) {
                node["selectedTabId"] = first
            }
        }
        if let reshape = reshapes[type], let data = node["data"] {
            do {
                node["data"] = try reshape(data)
            } catch {
                throw .restoreFailed("reshaping the data of \(type): \(error)")
            }
        }
        node["type"] = .string(coordinators[type] ?? type)
        return .object(node)
    }

    /// The entry as migrated; nil when its route was removed and it lands below (`rootReason` says why it cannot).
    private func migrateEntry(
        _ json: JSONValue, of type: String, dropping rootReason: String?, dropped: inout Bool
    ) throws(NavigationError) -> JSONValue? {
        guard var entry = json.objectValue, case .string(let route)? = entry["route"] else {
            throw .restoreFailed("an entry of \(type) has no route")
        }
        switch removed[type]?[route] {
        case .below?:
            if let rootReason {
                throw .restoreFailed("route '\(route)' was removed and cannot land below: \(rootReason)")
            }
            return nil
        case .route(let replacement, let input)?:
            guard entry["coordinator"] == nil else {
                throw .restoreFailed(
                    "route '\(route)' of \(type) hosted a coordinator: it can only land below, not on '\(replacement)'")
            }
            entry["route"] = .string(replacement)
            entry["input"] = input
            return .object(entry)
        case nil:
            if let renamed = routes[type]?[route] { entry["route"] = .string(renamed) }
            if let child = entry["coordinator"] { entry["coordinator"] = try migrateNode(child, dropped: &dropped) }
            return .object(entry)
        }
    }

    /// Whether a pending route (`{"owner", "type", "route"}`) names a coordinator or route the migration changes.
    private func touches(_ pending: JSONValue) -> Bool {
        let changedRoutes = Set(routes.values.flatMap(\.keys)).union(removed.values.flatMap(\.keys))
        let owner = pending["owner"].flatMap { value -> [String]? in
            guard case .array(let names) = value else { return nil }
            return names.compactMap(\.stringValue)
        }
        guard let type = pending["type"]?.stringValue, let route = pending["route"]?.stringValue, let owner else {
            return true
        }
        return namedCoordinators.contains(type) || changedRoutes.contains(route)
            || owner.contains(where: changedRoutes.contains)
    }
}
