/// Bringing documents of earlier versions of an app to this one.
extension NavigationApp {
    /// The migration this version declares for sessions of version `version`, if any.
    public func migration(from version: Int) -> AppMigration? {
        migrations.first { $0.from == version }
    }

    /// The migrations that lead from version `version` to this one: this version's own from `version` if it declares
    /// one, otherwise a chain through the versions in `versions` (other versions of this app) whose migrations lead
    /// there, latest step first tried. Nil when none leads there.
    public func migrationPath(from version: Int, through versions: [NavigationApp]) -> [(AppMigration, AppVersion)]? {
        guard version < self.version else { return nil }
        if let direct = migration(from: version) { return [(direct, identity)] }
        // Each step goes to a lower version (a migration from a later version is refused by the check, and
        // skipped here), so the search ends.
        for step in migrations.sorted(by: { $0.from > $1.from }) where step.from > version && step.from < self.version {
            guard let middle = versions.first(where: { $0.name == name && $0.version == step.from }),
                let before = middle.migrationPath(from: version, through: versions)
            else { continue }
            return before + [(step, identity)]
        }
        return nil
    }

    /// `document` (written by version `version` of this app) migrated to this version, through the versions in
    /// `versions`; the same document when it is of this version already.
    ///
    /// - Throws: ``NavigationError/restoreFailed(_:)`` when no migration leads here, or one cannot take the document.
    public func migrated(
        _ document: JSONValue, from version: Int, through versions: [NavigationApp]
    ) throws(NavigationError) -> JSONValue {
        guard version != self.version else { return document }
        guard let path = migrationPath(from: version, through: versions) else {
            throw .restoreFailed("no migration leads from \(name)@\(version) to \(identity)")
        }
        var migrated = document
        for (migration, target) in path {
            migrated = try migration.migrate(migrated, to: target)
        }
        return migrated
    }
}
