#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A hand-rolled timing harness: warm-up, then several timed rounds of many iterations; the median round counts.
///
/// Each round times a batch of iterations with the monotonic clock and divides by the batch size, so the clock's
/// own cost is spread over thousands of operations. The batch size is calibrated during warm-up so that one round
/// takes about `roundSeconds`.
struct Harness {
    var rounds = 9
    var roundSeconds = 0.04
    var warmupSeconds = 0.1
    /// For profilers: a few warm-up iterations, then exactly this many in one round (no calibration).
    var fixedIterations: Int?

    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Times `body` (one operation per call); its return value is folded into a checksum so nothing is optimized away.
    func measure(_ id: String, _ label: String, _ body: () throws -> Int) rethrows -> Measurement {
        var checksum = 0
        var iterations = 0
        let warmupStart = Self.now()
        let warmupBudget = fixedIterations == nil ? UInt64(warmupSeconds * 1e9) : 0
        while Self.now() - warmupStart < warmupBudget || iterations < 10 {
            checksum &+= try body()
            iterations += 1
        }
        let perOperation = Double(Self.now() - warmupStart) / Double(iterations)
        let batch = fixedIterations ?? max(1, Int(roundSeconds * 1e9 / perOperation))
        var samples: [Double] = []
        for _ in 0..<(fixedIterations == nil ? rounds : 1) {
            let start = Self.now()
            for _ in 0..<batch {
                checksum &+= try body()
            }
            samples.append(Double(Self.now() - start) / Double(batch))
        }
        return Measurement(id: id, label: label, samples: samples, batch: batch, checksum: checksum)
    }
}
