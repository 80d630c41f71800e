/// Declares a root route: the content a root or navigation coordinator shows at the bottom of its stack.
/// `@Root var list = makeList`; switch between roots with `root(\.other)`.
///
/// A value stored in the coordinator: only its declaration site (`fileID`, `line` and `column`; leave them to their
/// defaults). The factory is kept once per declaration and owner type, for the process.
@propertyWrapper
public struct Root<Owner: AnyObject, Input, Output>: RouteDeclaration {
    let site: RouteSite

    /// The typed transition that key paths point at.
    public var wrappedValue: Transition<Owner, Input, Output> { Transition(site: site) }

    init(_ factory: any RouteFactory<Owner>, _ fileID: StaticString, _ line: UInt, _ column: UInt) {
        site = RouteSite(fileID: fileID, line: line, column: column)
        RouteDeclarations.shared.register(site, owner: Owner.self) {
            { factory.transition(kind: .root, style: .push, tabItem: nil) }
        }
    }
}

extension Root {
    /// A root screen, without input.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, fileID: StaticString = #fileID, line: UInt = #line,
        column: UInt = #column
    ) where Input == Void, Output: Screen {
        self.init(ScreenFactory(make: factory), fileID, line, column)
    }

    /// A root screen, with input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, fileID: StaticString = #fileID,
        line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Screen {
        self.init(ScreenInputFactory(make: factory), fileID, line, column)
    }

    /// A root coordinator, without input.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, fileID: StaticString = #fileID, line: UInt = #line,
        column: UInt = #column
    ) where Input == Void, Output: Coordinatable {
        self.init(CoordinatorFactory(make: factory), fileID, line, column)
    }

    /// A root coordinator, with input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, fileID: StaticString = #fileID,
        line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Coordinatable {
        self.init(CoordinatorInputFactory(make: factory), fileID, line, column)
    }
}
