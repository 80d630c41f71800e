/// A statement prepared once on every connection, by name, with the types of its parameters.
struct PostgresStatement: Hashable, Sendable {
    let name: String
    let sql: String
    let parameters: [PostgresType]

    init(_ name: String, _ sql: String, _ parameters: [PostgresType] = []) {
        self.name = name
        self.sql = sql
        self.parameters = parameters
    }
}
