/// Declares a route of a coordinator: `@Route(.push) var todo = makeTodo`.
///
/// The factory is a method of the coordinator returning a ``Screen`` or a child ``Coordinatable``; its parameter, if
/// any, is the route's input (`Codable & Sendable`). `guardedBy:` names a method deciding, each time the route would
/// be entered, whether it may be (``RouteGuardDecision``); `onResult:` names the method that receives the outcome of
/// a ``ProducesResult`` output (``RouteOutcome``). The route's name is the property name (`todo`), which is how the
/// server reaches it with JSON input.
///
/// A value stored in the coordinator: only its declaration site (`fileID`, `line` and `column`; leave them to their
/// defaults; a helper that passes them on must give each route its own), 16 bytes per instance. The factory, style
/// and options are kept once per declaration and owner type, for the process.
@propertyWrapper
public struct Route<Owner: AnyObject, Input, Output>: RouteDeclaration {
    let site: RouteSite

    /// The typed transition that key paths point at.
    public var wrappedValue: Transition<Owner, Input, Output> { Transition(site: site) }

    init(
        _ factory: any RouteFactory<Owner>, _ style: RouteStyle, _ options: RouteOptions<Owner>,
        _ fileID: StaticString, _ line: UInt, _ column: UInt
    ) {
        site = RouteSite(fileID: fileID, line: line, column: column)
        RouteDeclarations.shared.register(site, owner: Owner.self) {
            {
                let transition = factory.transition(kind: .route, style: style, tabItem: nil)
                options.apply(to: transition)
                return transition
            }
        }
    }
}

extension Route {
    /// A route to a screen, without input.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil, fileID: StaticString = #fileID,
        line: UInt = #line, column: UInt = #column
    ) where Input == Void, Output: Screen {
        self.init(ScreenFactory(make: factory), style, RouteOptions(guardCheck: guardCheck), fileID, line, column)
    }

    /// A route to a screen, with input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil, fileID: StaticString = #fileID,
        line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Screen {
        self.init(ScreenInputFactory(make: factory), style, RouteOptions(guardCheck: guardCheck), fileID, line, column)
    }

    /// A route to a child coordinator, without input.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil, fileID: StaticString = #fileID,
        line: UInt = #line, column: UInt = #column
    ) where Input == Void, Output: Coordinatable {
        self.init(CoordinatorFactory(make: factory), style, RouteOptions(guardCheck: guardCheck), fileID, line, column)
    }

    /// A route to a child coordinator, with input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, _ style: RouteStyle,
        guardedBy guardCheck: ((Owner) -> () -> RouteGuardDecision)? = nil, fileID: StaticString = #fileID,
        line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Coordinatable {
        self.init(
            CoordinatorInputFactory(make: factory), style, RouteOptions(guardCheck: guardCheck), fileID, line, column)
    }
}
