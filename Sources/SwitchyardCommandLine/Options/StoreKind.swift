import ArgumentParser

/// `--store`: where sessions live (see ``StoreChoice``, which adds each store's settings).
enum StoreKind: String, CaseIterable, CheckedArgument {
    /// A SQLite file: sessions survive restarts and crashes.
    case sqlite
    /// A PostgreSQL database several nodes share; needs `--database-url`.
    case postgres
    /// Memory only: sessions end with the process.
    case memory
}
