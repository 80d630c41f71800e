/// What a screen shows: a title, an optional background colour and a list of elements.
public struct ScreenContent: Sendable, Hashable {
    /// The navigation-bar title.
    public var title: String
    /// A CSS colour for the screen's background (e.g. `#34c759`), or nil for the default.
    public var background: String?
    /// The elements, top to bottom.
    public var content: [ScreenElement]
    /// Why this description is not the screen in full (its rendering ran out of budget), or nil when it is. A
    /// document showing it is written, but ``NavigationEngine/checkedStateDocument(session:)`` refuses it.
    public var failure: ScreenRenderingFailure?

    /// Creates a screen description.
    public init(title: String, background: String? = nil, content: [ScreenElement] = []) {
        self.title = title
        self.background = background
        self.content = content
    }
}
