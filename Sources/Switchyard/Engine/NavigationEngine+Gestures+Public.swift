/// The user gestures as public operations.
extension NavigationEngine {
    /// Back: pops the visible pushed item, whoever owns it. Refused (with the reason) for a modal's first screen,
    /// the root screen, or when the owner's `shouldLeave` vetoes.
    @discardableResult
    public func goBack() throws -> NodeID {
        try transaction { try back() }
    }

    /// Dismiss modal: removes the top-most modal with its subtree. Refused for non-dismissible modals and vetoes.
    @discardableResult
    public func dismissTopModal() throws -> NodeID {
        try transaction { try dismissModal() }
    }

    /// Tab tap: selects the tab, or calls `didReselectTab` when it is already selected.
    @discardableResult
    public func tapTab(_ route: String) throws -> NodeID {
        try transaction { try selectTab(route) }
    }
}
