import ArgumentParser
import SwitchyardSessions

extension StoreChoice {
    /// The store the options choose, with its settings: `--store`, else PostgreSQL with `--database-url`, else SQLite.
    /// Every store option is checked, whichever store is chosen.
    /// - Throws: a `ValidationError` naming the flag or variable of a bad value, or the two that contradict.
    init(command: ServeCommand, options: OptionEnvironment, maxHistory: Int?, maxMemoryHistory: Int) throws {
        let folder = try options.value(command.data, "data").path
        let durability = try options.value(command.durability, "durability").durability
        let maxBytes = try options.value(command.dataMaxSize, "data-max-size")?.bytes
        let retention = try options.value(command.historyRetention, "history-retention").map(\.entries)
        let connections = try options.value(command.databaseConnections, "database-connections")?.value
        let timeout = try options.value(command.databaseTimeout, "database-timeout").duration
        let url = try options.sourced(command.databaseUrl, "database-url")
        let limits = StoreLimits(
            historyEntries: retention ?? StoreLimits.standard.historyEntries,
            historyBytes: maxHistory ?? StoreLimits.standard.historyBytes)
        switch (try options.sourced(command.store, "store"), url) {
        case (nil, let (url, _)?), ((.postgres, _)?, let (url, _)?):
            self = .postgres(url: url.url, connections: connections, limits: limits, timeout: timeout)
        case ((.postgres, let source)?, nil):
            throw ValidationError("\(source) postgres needs --database-url (or SWITCHYARD_DATABASE_URL)")
        case ((let kind, let source)?, (_, let urlSource)?):
            throw ValidationError("\(source) \(kind.rawValue) cannot be used with \(urlSource): choose one store")
        case (nil, nil), ((.sqlite, _)?, nil):
            self = .sqlite(folder: folder, durability: durability, maxBytes: maxBytes, limits: limits)
        case ((.memory, _)?, nil):
            let standard = StoreLimits.inMemory
            self = .memory(
                limits: StoreLimits(
                    historyEntries: retention ?? standard.historyEntries,
                    historyBytes: maxHistory ?? standard.historyBytes,
                    replies: standard.replies, replyBytes: standard.replyBytes),
                historyBudget: maxMemoryHistory)
        }
    }
}
