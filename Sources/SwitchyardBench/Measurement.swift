/// One timed benchmark: nanoseconds per operation in each round, and their median.
struct Measurement: Encodable {
    let id: String
    let label: String
    let medianNanoseconds: Double
    let minNanoseconds: Double
    let maxNanoseconds: Double
    let roundNanoseconds: [Double]
    let iterationsPerRound: Int
    let checksum: Int

    init(id: String, label: String, samples: [Double], batch: Int, checksum: Int) {
        self.id = id
        self.label = label
        let sorted = samples.sorted()
        medianNanoseconds = Measurement.median(sorted)
        minNanoseconds = sorted.first ?? 0
        maxNanoseconds = sorted.last ?? 0
        roundNanoseconds = samples
        iterationsPerRound = batch
        self.checksum = checksum
    }

    /// The median of sorted values (the mean of the middle two for an even count).
    static func median(_ sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
