/// The values a ``BoundedCount`` or a ``ByteSize`` may take: one caseless type per kind of limit.
protocol CountBounds: Sendable {
    /// The values accepted, bounds included.
    static var range: ClosedRange<Int> { get }
}

/// `--port`: 0 picks a free one.
enum PortNumbers: CountBounds { static let range = 0...65_535 }

/// `--threads`.
enum WorkerThreads: CountBounds { static let range = 1...256 }

/// `--max-sessions`, `--history-retention`.
enum Millions: CountBounds { static let range = 1...10_000_000 }

/// `--max-connections`, `--max-connections-per-ip`, `--max-connections-per-network`, `--max-streams`.
enum Connections: CountBounds { static let range = 1...1_000_000 }

/// `--session-create-rate`, `--definition-check-rate`: 0 is no limit.
enum PerMinute: CountBounds { static let range = 0...1_000_000 }

/// `--max-body`, in bytes.
enum BodyBytes: CountBounds { static let range = 1024...(64 << 20) }

/// `--max-document`, in bytes.
enum DocumentBytes: CountBounds { static let range = 16_384...(64 << 20) }

/// `--max-field`, in bytes.
enum FieldBytes: CountBounds { static let range = 64...(1 << 20) }

/// `--database-connections`.
enum DatabaseConnections: CountBounds { static let range = 1...1000 }

/// `--max-history`: 1G at most.
enum HistoryBytes: CountBounds { static let range = 0...(1 << 30) }

/// `--max-renderings`: 0 renders every screen every time.
enum RenderingBytes: CountBounds { static let range = 0...(1 << 40) }

/// `--max-memory-history`, `--data-max-size`: 1M at least.
enum StorageBytes: CountBounds { static let range = (1 << 20)...(1 << 50) }
