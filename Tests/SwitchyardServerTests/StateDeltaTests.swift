import Gzip
import SwitchyardSessions
import Testing

/// Restore documents stored as deltas: exact round trips, checked against the bytes they were made from, and the
/// policy that breaks the chains.
@Suite("State deltas")
struct StateDeltaTests {
    static func document(_ version: Int, stack: Int) -> [UInt8] {
        let screens = (0..<stack).map { #"{"route":"todo","input":"item-\#($0)"}"# }.joined(separator: ",")
        return Array(
            #"{"version":\#(version),"stack":[\#(screens)],"data":"\#(String(repeating: "ab", count: 300))"}"#.utf8)
    }

    @Test func aDeltaGivesTheDocumentBackByteForByteAndIsSmall() throws {
        let before = Self.document(4, stack: 2)
        let after = Self.document(5, stack: 3)
        let delta = try #require(DeflateDelta.make(from: before, to: after))
        #expect(delta.count * 10 < after.count, "\(delta.count) bytes for a \(after.count)-byte document")
        #expect(DeflateDelta.apply(delta, to: before) == after)
        // Any bytes at all, not only JSON, and an empty target.
        let binary = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(
            DeflateDelta.make(from: binary, to: binary.reversed()).flatMap { DeflateDelta.apply($0, to: binary) }
                == binary.reversed())
        #expect(DeflateDelta.make(from: before, to: []).flatMap { DeflateDelta.apply($0, to: before) } == [])
    }

    @Test func aDeltaAppliedToOtherBytesOrDamagedGivesNothing() throws {
        let before = Self.document(4, stack: 2)
        let delta = try #require(DeflateDelta.make(from: before, to: Self.document(5, stack: 3)))
        #expect(DeflateDelta.apply(delta, to: Self.document(4, stack: 1)) == nil, "made against other bytes")
        var damaged = delta
        damaged[damaged.count / 2] ^= 0x40
        #expect(DeflateDelta.apply(damaged, to: before) == nil)
        #expect(DeflateDelta.apply(Array(delta.prefix(delta.count - 3)), to: before) == nil, "cut short")
    }

    @Test func snapshotsComeEverySixteenVersionsAndWhenTheBaseIsUnknown() {
        let previous = (version: 4, state: Self.document(4, stack: 2))
        #expect(StateDelta.make(version: 5, state: Self.document(5, stack: 3), previous: previous)?.base == 4)
        #expect(StateDelta.make(version: 5, state: Self.document(5, stack: 3), previous: nil) == nil)
        #expect(StateDelta.make(version: 6, state: Self.document(6, stack: 3), previous: previous) == nil, "a gap")
        let fifteen = (version: 15, state: Self.document(15, stack: 2))
        #expect(StateDelta.make(version: 16, state: Self.document(16, stack: 3), previous: fifteen) == nil)
        // A document unlike the one before is stored whole: a delta would not save half of it.
        #expect(StateDelta.make(version: 5, state: Array(repeating: 0x20, count: 10), previous: previous) == nil)
    }

    @Test func aChainIsRebuiltFromItsSnapshotAndAMissingLinkGivesNothing() throws {
        var stored: [Int: StateDelta.Stored] = [16: .whole(Self.document(16, stack: 0))]
        var previous = (version: 16, state: Self.document(16, stack: 0))
        for version in 17...31 {
            let document = Self.document(version, stack: version % 5)
            stored[version] = .delta(
                try #require(StateDelta.make(version: version, state: document, previous: previous)))
            previous = (version, document)
        }
        for version in 16...31 {
            #expect(
                StateDelta.rebuild(version) { stored[$0] }
                    == .state(Self.document(version, stack: version == 16 ? 0 : version % 5)))
        }
        stored[20] = nil
        #expect(StateDelta.rebuild(19) { stored[$0] }.document != nil)
        #expect(StateDelta.rebuild(20) { stored[$0] } == .notKept)
        // History is trimmed a whole chain at a time: a missing link inside one is damage, not "not kept".
        #expect(StateDelta.rebuild(25) { stored[$0] } == .damaged("version 25 builds on version 20, which is missing"))
        stored[23] = .delta(StateDelta(base: 22, bytes: [0, 255, 0, 255]))
        let rebuilt = StateDelta.rebuild(23, read: { stored[$0] })
        guard case .damaged = rebuilt else {
            Issue.record("a delta that does not apply is damage, not \(rebuilt)")
            return
        }
    }
}
