import ArgumentParser

/// A size in bytes within `Bounds`, in bytes or with a unit: `65536`, `64K`, `8M`, `4G` (K is 1024 bytes).
struct ByteSize<Bounds: CountBounds>: CheckedArgument, Equatable {
    /// The size in bytes, within `Bounds.range`.
    let bytes: Int

    private static var units: [Character: Int] { ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30] }

    /// Reads a size within `Bounds.range`; the unit may be lower case.
    init(checking text: String) throws(ArgumentRequirement) {
        let range = Bounds.range
        var digits = Substring(text)
        var scale = 1
        if let last = text.uppercased().last, let unit = Self.units[last] {
            digits = digits.dropLast()
            scale = unit
        }
        guard let value = Int(digits), value >= 0, value <= range.upperBound / scale, range.contains(value * scale)
        else {
            let least = range.lowerBound >= 1 << 20 ? "\(range.lowerBound >> 20)M" : "\(range.lowerBound)"
            let bound = range.lowerBound > 0 ? " (at least \(least))" : ""
            throw ArgumentRequirement(text: "must be a size such as 512K, 64M or 4G\(bound)")
        }
        bytes = value * scale
    }

    /// A default written in the code, which must be within the bounds: `.kilobytes(256)`.
    static func kilobytes(_ count: Int) -> Self { Self(bytes: count << 10) }

    /// A default written in the code, which must be within the bounds: `.megabytes(8)`.
    static func megabytes(_ count: Int) -> Self { Self(bytes: count << 20) }

    private init(bytes: Int) {
        precondition(Bounds.range.contains(bytes), "\(bytes) bytes are out of \(Bounds.range)")
        self.bytes = bytes
    }

    /// The size in the largest unit that divides it: `256K`, `8M`, `4G`, `1000`.
    var defaultValueDescription: String {
        for (unit, scale) in Self.units.sorted(by: { $0.value > $1.value }) where bytes > 0 && bytes % scale == 0 {
            return "\(bytes / scale)\(unit)"
        }
        return "\(bytes)"
    }
}
