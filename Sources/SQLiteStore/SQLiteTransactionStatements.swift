/// The statements that frame a group commit on the writer's connection (``SQLiteWriter``): its transaction, a
/// savepoint per batch, and the store's data version, by which a commit finds out that another connection wrote.
struct SQLiteTransactionStatements {
    let begin: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let savepoint: SQLiteStatement
    let release: SQLiteStatement
    let rollbackToSavepoint: SQLiteStatement
    private let dataVersion: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(SQLiteError) {
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        rollback = try connection.prepare("ROLLBACK")
        savepoint = try connection.prepare("SAVEPOINT batch")
        release = try connection.prepare("RELEASE batch")
        rollbackToSavepoint = try connection.prepare("ROLLBACK TO batch")
        dataVersion = try connection.prepare("PRAGMA data_version")
    }

    /// `PRAGMA data_version`: the same number from one reading to the next on this connection unless another
    /// connection committed in between.
    func storeDataVersion() throws(SQLiteError) -> Int {
        defer { dataVersion.reset() }
        return try dataVersion.step() ? dataVersion.integer(0) : -1
    }
}
