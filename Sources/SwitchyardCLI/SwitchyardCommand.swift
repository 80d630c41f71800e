import ArgumentParser

/// `switchyard`: the server-authoritative navigation engine, serving the demo app.
@main
struct SwitchyardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard",
        abstract: "Server-authoritative navigation: coordinators as a state machine behind a REST API.",
        discussion: """
            Every option can also be set with an environment variable (SWITCHYARD_PORT=9000, …); a flag wins over \
            the environment.
            """,
        version: SwitchyardVersion.current,
        subcommands: [ServeCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}

/// The version `switchyard --version` prints.
enum SwitchyardVersion {
    static let current = "0.1.0"
}
