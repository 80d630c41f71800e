import Switchyard

/// Makes apps from the definitions published through the admin API, for ``AppReleases``.
///
/// The session layer stores and serves published definitions but cannot read them: it does not link the definitions
/// compiler (nor YAML, nor Mustache), as the stores that link it must not. The server passes one in.
package struct AppCompiler: Sendable {
    /// The app `text` declares, read as `format` (a format's name as published: `json` or `yaml`); every finding
    /// when it cannot be served.
    package typealias Compile =
        @Sendable (_ text: String, _ format: String) throws(DefinitionRejection) -> NavigationApp

    private let compile: Compile

    /// A compiler that makes apps with `compile`.
    package init(_ compile: @escaping Compile) {
        self.compile = compile
    }

    /// The app `text` declares, read as `format` (`json` or `yaml`).
    package func app(from text: String, format: String) throws(DefinitionRejection) -> NavigationApp {
        try compile(text, format)
    }
}
