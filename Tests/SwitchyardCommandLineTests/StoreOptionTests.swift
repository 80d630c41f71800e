import Testing

@testable import SwitchyardCommandLine

/// `--store`, `--database-url` and the store's settings: which store they choose, and the contradictions refused.
@Suite struct StoreOptionTests {
    typealias Options = OptionSourceTests

    @Test func sqliteInDataByDefault() throws {
        guard case .sqlite(let folder, let durability, let maxBytes, let limits) = try Options.settings([]).store else {
            Issue.record("not sqlite")
            return
        }
        #expect(folder == "data" && durability == .process && maxBytes == nil)
        #expect(limits.historyEntries == 1000 && limits.historyBytes == 1 << 20)
    }

    @Test func theStoreOptionsComeFromTheEnvironmentToo() throws {
        let environment = [
            "SWITCHYARD_DATA": "elsewhere", "SWITCHYARD_DURABILITY": "machine", "SWITCHYARD_DATA_MAX_SIZE": "4G",
            "SWITCHYARD_HISTORY_RETENTION": "all", "SWITCHYARD_MAX_HISTORY": "64K",
        ]
        let store = try Options.settings([], environment).store
        guard case .sqlite(let folder, let durability, let maxBytes, let limits) = store else {
            Issue.record("not sqlite")
            return
        }
        #expect(folder == "elsewhere" && durability == .machine && maxBytes == 4 << 30)
        #expect(limits.historyEntries == nil && limits.historyBytes == 64 << 10)
    }

    @Test func aDatabaseURLChoosesPostgres() throws {
        let store = try Options.settings(["--database-url", "postgresql://db/app", "--database-connections", "3"]).store
        guard case .postgres(let url, let connections, _, let timeout) = store else {
            Issue.record("not postgres")
            return
        }
        #expect(url == "postgresql://db/app" && connections == 3 && timeout == .seconds(5))
    }

    @Test func memoryHasItsOwnLimits() throws {
        guard case .memory(let limits, let budget) = try Options.settings(["--store", "memory"]).store else {
            Issue.record("not memory")
            return
        }
        #expect(limits.historyEntries == 50 && limits.historyBytes == 64 << 10 && budget == 256 << 20)
    }

    @Test func contradictionsNameBothSources() {
        #expect(
            Options.refusal(["--store", "postgres"])
                == "--store postgres needs --database-url (or SWITCHYARD_DATABASE_URL)")
        #expect(
            Options.refusal(["--database-url", "postgresql://db/app"], ["SWITCHYARD_STORE": "memory"])
                == "SWITCHYARD_STORE memory cannot be used with --database-url: choose one store")
    }
}
