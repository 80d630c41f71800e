/// The median, 99th percentile and maximum of a set of measurements (nearest rank).
struct Percentiles: Encodable {
    var p50: Double
    var p99: Double
    var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count - 1)).rounded()))]
        }
        p50 = at(0.5)
        p99 = at(0.99)
        max = sorted.last ?? 0
    }
}
