import ArgumentParser

/// The root command: `serve` (the default) with every flag, named after the program that runs it.
struct SwitchyardCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        let program = CommandLineProgram.current
        return CommandConfiguration(
            commandName: program.name,
            abstract: "Server-authoritative navigation: coordinators as a state machine behind a REST API.",
            discussion: """
                Every option can also be set with an environment variable (SWITCHYARD_PORT=9000, …); a flag wins over \
                the environment.
                """,
            version: program.version,
            subcommands: [
                ServeCommand.self, CheckCommand.self, MigrateCommand.self, ReplayCommand.self, StatsCommand.self,
                ExploreCommand.self,
                PathsCommand.self,
                TestCommand.self,
            ],
            defaultSubcommand: ServeCommand.self
        )
    }
}
