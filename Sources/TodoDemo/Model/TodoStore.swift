/// The todos of one session. Owned by the session's ``AppCoordinator``; screens read it when rendered.
public final class TodoStore {
    /// The todos in order of creation.
    public private(set) var todos: [Todo] {
        didSet { revision += 1 }
    }

    /// Counts every change of ``todos``: the screens that show them give it as their `contentRevision`, so an
    /// unchanged list is not rendered again.
    public private(set) var revision = 0

    /// The most todos a session holds (the store lives outside the navigation tree, so it bounds itself).
    public static let maxTodos = 100
    /// The longest todo name, in characters.
    public static let maxNameCharacters = 120

    /// A store seeded with the demo's todos (ids include `hello-world` and `buy-milk`).
    public init() {
        todos = [
            Todo(id: "hello-world", name: "Hello, world!", favourite: true),
            Todo(id: "buy-milk", name: "Buy milk", favourite: false),
            Todo(id: "write-docs", name: "Write the docs", favourite: false),
        ]
    }

    /// The todo with that id.
    public func todo(_ id: String) -> Todo? {
        todos.first { $0.id == id }
    }

    /// The favourites, in order.
    public var favourites: [Todo] {
        todos.filter(\.favourite)
    }

    /// Adds a todo named `name`; its id is a slug of the name, made unique.
    @discardableResult
    public func add(name: String) -> Todo {
        let base = Self.slug(name)
        var id = base
        var counter = 2
        while todo(id) != nil {
            id = "\(base)-\(counter)"
            counter += 1
        }
        let todo = Todo(id: id, name: name, favourite: false)
        todos.append(todo)
        return todo
    }

    /// Replaces every todo (when a saved session is restored).
    public func replaceAll(with todos: [Todo]) {
        self.todos = todos
    }

    /// Sets a todo's favourite flag; false if there is no such todo.
    @discardableResult
    public func setFavourite(_ id: String, _ favourite: Bool) -> Bool {
        guard let index = todos.firstIndex(where: { $0.id == id }) else { return false }
        todos[index].favourite = favourite
        return true
    }

    static func slug(_ name: String) -> String {
        let lowered = name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let joined = String(lowered).split(separator: "-").joined(separator: "-")
        // Cut to 40 characters, never ending in a `-` (which `-2` would then double).
        let cut = String(joined.prefix(40).reversed().drop { $0 == "-" }.reversed())
        return cut.isEmpty ? "todo" : cut
    }
}
