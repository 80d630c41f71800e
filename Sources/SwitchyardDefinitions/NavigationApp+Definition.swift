import Switchyard

extension NavigationApp {
    /// The app an app definition declares, run by the same engine as an app written in Swift.
    ///
    /// - Throws: ``DefinitionFailure`` with every finding ``AppDefinition/load(_:format:)`` makes, when one is an error.
    public init(definition text: String, format: DefinitionFormat = .json) throws {
        let loaded = AppDefinition.load(text, format: format)
        guard let definition = loaded.definition, !loaded.diagnostics.contains(where: { $0.severity == .error }) else {
            throw DefinitionFailure(diagnostics: loaded.diagnostics)
        }
        self.init(definition)
    }

    /// The app of a definition (``AppDefinition/load(_:format:)`` gives one only when it has no error).
    public init(_ definition: AppDefinition) {
        let compiled = CompiledDefinition(definition)
        let root = definition.root
        let initial = definition.data
        let start: @Sendable () -> CoordinatorContext = {
            compiled.context(root, input: nil, data: SessionData(initial), savesState: true)
        }
        let links = definition.deepLinks
        let version = definition.version
        let migrations = definition.migrations.map { $0.migration(root: root) }
        defer { guardedTexts = definition.guardedTexts }
        switch definition.coordinator(root)?.kind ?? .stack {
        case .root:
            self.init(
                name: definition.name, version: version, root: { DefinedRootCoordinator(start()) },
                deepLinks: DefinedDeepLinks.router(links), migrations: migrations)
        case .stack:
            self.init(
                name: definition.name, version: version, root: { DefinedStackCoordinator(start()) },
                deepLinks: DefinedDeepLinks.router(links), migrations: migrations)
        case .tabs:
            self.init(
                name: definition.name, version: version, root: { DefinedTabCoordinator(start()) },
                deepLinks: DefinedDeepLinks.router(links), migrations: migrations)
        }
    }
}

extension AppDefinition {
    /// The texts its routes' guards compare data with (`{"path": "data.user", "equals": "ada"}`), each once.
    var guardedTexts: [String] {
        var texts: [String] = []
        var pending = coordinators.flatMap(\.routes).compactMap { $0.guardRule?.allowIf }
        while let condition = pending.popLast() {
            switch condition {
            case .equals(_, .literal(.string(let text))) where !texts.contains(text): texts.append(text)
            case .not(let inner): pending.append(inner)
            case .all(let inner), .any(let inner): pending += inner
            default: break
            }
        }
        return texts
    }
}
