import Testing

@testable import SwitchyardCommandLine

/// The option types read their text as before the options were typed, and show their defaults as they are written.
@Suite struct ArgumentValueTests {
    @Test func durationsReadSecondsMinutesAndHoursUpToAWeek() throws {
        #expect(try DurationArgument(checking: "90").duration == .seconds(90))
        #expect(try DurationArgument(checking: "30m").duration == .seconds(1800))
        #expect(try DurationArgument(checking: "168h").duration == .seconds(7 * 24 * 3600))
        for bad in ["0", "169h", "", "m", "1.5h", "2d"] {
            #expect(throws: ArgumentRequirement.self) { try DurationArgument(checking: bad) }
        }
        #expect(DurationArgument.minutes(30).defaultValueDescription == "30m")
        #expect(DurationArgument.seconds(90).defaultValueDescription == "90s")
        #expect(DurationArgument.minutes(120).defaultValueDescription == "2h")
    }

    @Test func sizesReadBytesOrAUnitWithinTheirBounds() throws {
        #expect(try ByteSize<HistoryBytes>(checking: "256k").bytes == 256 << 10)
        #expect(try ByteSize<HistoryBytes>(checking: "1G").bytes == 1 << 30)
        #expect(try ByteSize<HistoryBytes>(checking: "0").bytes == 0)
        #expect(throws: ArgumentRequirement(text: "must be a size such as 512K, 64M or 4G")) {
            try ByteSize<HistoryBytes>(checking: "1025M")
        }
        #expect(throws: ArgumentRequirement(text: "must be a size such as 512K, 64M or 4G (at least 1M)")) {
            try ByteSize<StorageBytes>(checking: "1023K")
        }
        #expect(ByteSize<StorageBytes>.megabytes(256).defaultValueDescription == "256M")
        #expect(ByteSize<HistoryBytes>.kilobytes(1024).defaultValueDescription == "1M")
    }

    @Test func countsAreWholeNumbersWithinTheirBounds() throws {
        #expect(try BoundedCount<PortNumbers>(checking: "0").value == 0)
        #expect(try BoundedCount<PortNumbers>(checking: "65535").value == 65_535)
        #expect(throws: ArgumentRequirement(text: "must be a whole number from 0 to 65535")) {
            try BoundedCount<PortNumbers>(checking: "65536")
        }
        #expect(try HistoryRetention(checking: "all") == .all)
        #expect(try HistoryRetention(checking: "5").entries == 5)
    }

    @Test func choicesNameTheirCases() {
        #expect(throws: ArgumentRequirement(text: "must be sqlite, postgres or memory")) {
            try StoreKind(checking: "SQLite")
        }
        #expect(LogFormat.allValueStrings == ["text", "json"])
        #expect(OptionValue<LogFormat>.allValueStrings == ["text", "json"])
    }
}
