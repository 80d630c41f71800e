/// Declares a tab of a tab coordinator: `@TabRoute(item: makeHomeTab) var home = makeHome`.
///
/// `item` is a method returning the ``TabItem`` (title, icon, badge); it is called whenever the state is read.
///
/// A value stored in the coordinator: only its declaration site (`fileID`, `line` and `column`; leave them to their
/// defaults). The factory and the item are kept once per declaration and owner type, for the process.
@propertyWrapper
public struct TabRoute<Owner: AnyObject, Input, Output>: RouteDeclaration {
    let site: RouteSite

    /// The typed transition that key paths point at.
    public var wrappedValue: Transition<Owner, Input, Output> { Transition(site: site) }

    init(
        _ factory: any RouteFactory<Owner>, item: @escaping (Owner) -> () -> TabItem, _ fileID: StaticString,
        _ line: UInt, _ column: UInt
    ) {
        site = RouteSite(fileID: fileID, line: line, column: column)
        RouteDeclarations.shared.register(site, owner: Owner.self) {
            { factory.transition(kind: .tab, style: .push, tabItem: item) }
        }
    }
}

extension TabRoute {
    /// A tab showing a screen.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, item: @escaping (Owner) -> () -> TabItem,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input == Void, Output: Screen {
        self.init(ScreenFactory(make: factory), item: item, fileID, line, column)
    }

    /// A tab showing a screen made from input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, item: @escaping (Owner) -> () -> TabItem,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Screen {
        self.init(ScreenInputFactory(make: factory), item: item, fileID, line, column)
    }

    /// A tab showing a coordinator.
    public init(
        wrappedValue factory: @escaping (Owner) -> () -> Output, item: @escaping (Owner) -> () -> TabItem,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input == Void, Output: Coordinatable {
        self.init(CoordinatorFactory(make: factory), item: item, fileID, line, column)
    }

    /// A tab showing a coordinator made from input.
    public init(
        wrappedValue factory: @escaping (Owner) -> (Input) -> Output, item: @escaping (Owner) -> () -> TabItem,
        fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column
    ) where Input: Codable & Sendable, Output: Coordinatable {
        self.init(CoordinatorInputFactory(make: factory), item: item, fileID, line, column)
    }
}
