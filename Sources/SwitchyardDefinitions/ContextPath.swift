/// The paths a context is read at: `data.user.name`, `item.id`, `data.todos[id={{input}}].name`.
enum ContextPath {
    static func isValid(_ path: String) -> Bool {
        if path.contains("[") { return DataPath(path) != nil }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false)
        return !keys.isEmpty && keys.allSatisfy { !$0.isEmpty && !$0.contains(where: \.isWhitespace) }
    }
}
