/// A place in a text file, as editors count: line and column from 1, the column in characters (Unicode scalars).
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    /// The place at `line` and `column` (from 1).
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line 3, column 7`.
    public var description: String { "line \(line), column \(column)" }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// Where a text's lines start: turns byte offsets into ``SourcePosition``s.
public struct SourceLines: Sendable {
    private let text: [UInt8]
    /// The byte offset of each line's first byte.
    private let starts: [Int]

    /// The lines of `text` (UTF-8).
    public init(_ text: [UInt8]) {
        self.text = text
        var starts = [0]
        for (offset, byte) in text.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.starts = starts
    }

    /// The line and column of the byte at `offset` (clamped to the text).
    public func position(ofByte offset: Int) -> SourcePosition {
        let offset = min(max(offset, 0), text.count)
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // Continuation bytes (10xxxxxx) are part of the character before them.
        let characters = text[starts[low]..<offset].count { $0 & 0xC0 != 0x80 }
        return SourcePosition(line: low + 1, column: characters + 1)
    }
}
