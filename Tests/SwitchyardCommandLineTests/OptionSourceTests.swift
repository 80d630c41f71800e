import ArgumentParser
import Testing

@testable import SwitchyardCommandLine

/// Where each of `serve`'s options comes from: its flag, else its environment variable, else its default; and a bad
/// value is refused naming the flag or the variable it came from, with what it must be.
@Suite struct OptionSourceTests {
    /// `serve`'s settings for `arguments` and `environment`.
    static func settings(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Settings {
        try Settings(command: ServeCommand.parse(arguments), environment: environment)
    }

    /// The message a bad `arguments` or `environment` is refused with.
    static func refusal(_ arguments: [String], _ environment: [String: String] = [:]) -> String? {
        do {
            _ = try settings(arguments, environment)
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// A value each checked option refuses, and what the refusal says it must be.
    static let badValues: [String: (text: String, requirement: String)] = [
        "port": ("nope", "must be a whole number from 0 to 65535"),
        "threads": ("0", "must be a whole number from 1 to 256"),
        "max-sessions": ("0", "must be a whole number from 1 to 10000000"),
        "session-ttl": ("9w", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "max-body": ("10", "must be a whole number from 1024 to 67108864"),
        "log-level": ("loud", "must be one of trace, debug, info, notice, warning, error, critical"),
        "log-format": ("xml", "must be text or json"),
        "max-connections": ("0", "must be a whole number from 1 to 1000000"),
        "max-connections-per-ip": ("0", "must be a whole number from 1 to 1000000"),
        "max-connections-per-network": ("many", "must be a whole number from 1 to 1000000"),
        "max-streams": ("1000001", "must be a whole number from 1 to 1000000"),
        "idle-timeout": ("0s", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "admin-token": ("short", "must be at least 16 characters, without spaces (openssl rand -hex 32)"),
        "request-timeout": ("169h", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "first-request-timeout": ("5x", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "session-create-rate": ("-1", "must be a whole number from 0 to 1000000"),
        "definition-check-rate": ("lots", "must be a whole number from 0 to 1000000"),
        "unused-session-ttl": ("-2m", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "max-document": ("16383", "must be a whole number from 16384 to 67108864"),
        "max-field": ("63", "must be a whole number from 64 to 1048576"),
        "max-history": ("2G", "must be a size such as 512K, 64M or 4G"),
        "max-memory-history": ("1K", "must be a size such as 512K, 64M or 4G (at least 1M)"),
        "max-renderings": ("lots", "must be a size such as 512K, 64M or 4G"),
        "store": ("disk", "must be sqlite, postgres or memory"),
        "data": ("", "must name a folder"),
        "durability": ("fast", "must be process or machine"),
        "data-max-size": ("1K", "must be a size such as 512K, 64M or 4G (at least 1M)"),
        "history-retention": ("none", "must be a whole number from 1 to 10000000, or all"),
        "database-url": ("mysql://db/app", "must be a postgresql:// URL (or a libpq key=value string)"),
        "database-connections": ("0", "must be a whole number from 1 to 1000"),
        "database-timeout": ("0", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "reconcile-interval": ("1d", "must be a duration such as 90s, 30m or 2h (at most a week)"),
        "demo": ("maybe", "must be on or off"),
    ]

    /// Options any text is a value of (`--rollout`'s refusals are its own, below).
    static let freeText: Set = ["app", "rollout", "host", "public", "cors-origin", "default-app"]

    @Test func everyCheckedOptionHasABadValueHere() {
        for (name, _) in HelpOptions().options where !Self.freeText.contains(name) {
            #expect(Self.badValues[name] != nil, "no bad value for --\(name) in OptionSourceTests.badValues")
        }
    }

    @Test(arguments: badValues.keys.sorted())
    func aBadValueIsRefusedNamingItsFlagOrVariable(name: String) throws {
        let (text, requirement) = try #require(Self.badValues[name])
        let variable = OptionEnvironment.variable(of: name)
        // A value starting with "-" follows an "=", or it would be read as an option.
        let arguments = text.hasPrefix("-") ? ["--\(name)=\(text)"] : ["--\(name)", text]
        #expect(Self.refusal(arguments) == "--\(name) \(requirement)")
        #expect(Self.refusal([], [variable: text]) == "\(variable) \(requirement)")
    }

    @Test func aFlagWinsOverItsVariableWhichWinsOverTheDefault() throws {
        #expect(try Self.settings([]).port == 8080)
        #expect(try Self.settings([], ["SWITCHYARD_PORT": "9000"]).port == 9000)
        #expect(try Self.settings(["--port", "9001"], ["SWITCHYARD_PORT": "9000"]).port == 9001)
        #expect(try Self.settings(["--port", "9001"], ["SWITCHYARD_PORT": "nope"]).port == 9001)
        #expect(try Self.settings([], ["SWITCHYARD_HOST": "0.0.0.0"]).host == "0.0.0.0")
        #expect(
            try Self.settings([], ["SWITCHYARD_CORS_ORIGIN": "https://a.example"]).corsOrigin == "https://a.example")
        #expect(try Self.settings([], ["SWITCHYARD_PUBLIC": "page"]).publicFolder == "page")
        #expect(try Self.settings(["--session-ttl", "90"]).sessionTTL == .seconds(90))
        #expect(try Self.settings([], ["SWITCHYARD_LOG_LEVEL": "DEBUG"]).logLevel == .debug)
    }

    @Test func listsComeFromTheFlagsElseFromTheirVariable() throws {
        #expect(try Self.settings([], ["SWITCHYARD_APPS": "a.yaml:defs"]).appPaths == ["a.yaml", "defs"])
        #expect(try Self.settings(["--app", "b.yaml"], ["SWITCHYARD_APPS": "a.yaml"]).appPaths == ["b.yaml"])
        #expect(try Self.settings([], ["SWITCHYARD_ROLLOUTS": "todo=1 shop=2"]).rollouts.count == 2)
        #expect(Self.refusal(["--rollout", "todo=x"])?.hasPrefix("--rollout: ") == true)
        #expect(Self.refusal([], ["SWITCHYARD_ROLLOUTS": "todo=x"])?.hasPrefix("SWITCHYARD_ROLLOUTS: ") == true)
    }

    @Test func anEmptyAdminTokenTurnsTheEndpointsOff() throws {
        #expect(try Self.settings([], ["SWITCHYARD_ADMIN_TOKEN": ""]).adminToken == nil)
        let token = String(repeating: "a", count: 16)
        #expect(try Self.settings([], ["SWITCHYARD_ADMIN_TOKEN": token]).adminToken == token)
    }
}
