/// A route named by key path, with its input: the typed form of a screen action that opens a route
/// (``ScreenAction/push(_:)``, ``ScreenAction/push(_:_:)``, ``ScreenAction/route(_:)``, ``ScreenAction/present(_:presentation:)``…).
///
/// The compiler checks the route exists and takes this input; the engine finds the route's name when it writes the
/// screen, on the coordinator that owns the screen or the nearest ancestor of the key path's type (so a screen can
/// open a route of a parent coordinator). A screen whose typed action names a coordinator type that holds neither is
/// not shown: the change that would show it is refused (``ScreenRenderingFailure``), and `check` reports it first.
public struct RouteAction: Sendable, Hashable {
    /// How the route is opened.
    enum Verb: Sendable, Hashable {
        case route
        case push
        case present(Presentation?)
    }

    let verb: Verb
    /// The key path's root type: the coordinator type the route belongs to.
    let ownerType: ObjectIdentifier
    /// Its name, for messages (`SettingsCoordinator`).
    let ownerName: String
    let input: JSONValue?
    private let keyPath: KeyPathIdentity
    private let resolveName: @Sendable (AnyObject) -> String?

    init<Owner: Coordinatable, Input, Output>(
        _ verb: Verb, _ keyPath: KeyPath<Owner, Transition<Owner, Input, Output>>, input: JSONValue?
    ) {
        self.verb = verb
        ownerType = ObjectIdentifier(Owner.self)
        ownerName = String(describing: Owner.self)
        self.input = input
        self.keyPath = KeyPathIdentity(keyPath: keyPath)
        let handle = SendableKeyPath(keyPath: keyPath)
        resolveName = { coordinator in
            guard let owner = coordinator as? Owner else { return nil }
            return RouteTable.of(owner).name(for: handle.keyPath, in: owner)
        }
    }

    /// `input` as the wire carries it. Route inputs are `Codable`; one whose encoding throws is sent as `null`, which
    /// the route then refuses with the decoding error, as it would refuse that input from any client.
    static func encoded(_ input: some Encodable) -> JSONValue {
        (try? JSONValue(encoding: input)) ?? .null
    }

    /// The route's name on `coordinator` when it is of the key path's type, else nil.
    func routeName(on coordinator: AnyObject) -> String? {
        guard ObjectIdentifier(type(of: coordinator)) == ownerType else { return nil }
        return resolveName(coordinator)
    }

    /// The step the wire carries once the route's name is known.
    func step(route: String) -> Step {
        switch verb {
        case .route: Step(.route(route: route, input: input))
        case .push: Step(.push(route: route, input: input))
        case .present(let presentation): Step(.present(route: route, input: input, presentation: presentation))
        }
    }

    /// How a message names the route: `\SettingsCoordinator.green` once resolved, or the type alone.
    func described(route: String?) -> String {
        "\\\(ownerName).\(route ?? "…")"
    }

    public static func == (lhs: RouteAction, rhs: RouteAction) -> Bool {
        lhs.verb == rhs.verb && lhs.keyPath == rhs.keyPath && lhs.input == rhs.input
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyPath)
        hasher.combine(input)
    }
}

/// A key path compared and hashed as the standard library does: immutable once made, so read from any thread.
private struct KeyPathIdentity: @unchecked Sendable, Hashable {
    let keyPath: AnyKeyPath
}

/// A key path to a route: immutable once made, so it can be read from any thread.
private struct SendableKeyPath<Owner: AnyObject, Input, Output>: @unchecked Sendable {
    let keyPath: KeyPath<Owner, Transition<Owner, Input, Output>>
}
