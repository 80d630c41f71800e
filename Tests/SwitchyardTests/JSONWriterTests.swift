import Switchyard
import Testing

@Suite("JSON writer")
struct JSONWriterTests {
    /// Strings are checked for escapes eight bytes at a time: a character that needs one is escaped wherever it is.
    @Test(arguments: ["\"", "\\", "<", "\n", "\u{01}", "\u{1F}"])
    func everyCharacterThatNeedsAnEscapeIsEscapedAtAnyPosition(special: String) throws {
        for length in 0..<20 {
            for position in 0...length {
                var text = String(repeating: "ab", count: length).prefix(length)
                text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: position))
                let written = JSONValue.string(String(text)).serialized()
                #expect(try JSONValue(parsing: written) == .string(String(text)))
                #expect(written.count > text.utf8.count + 2, "'\(special)' at \(position) of \(length) is escaped")
            }
        }
    }

    @Test func textWithoutEscapesIsCopiedAsItIs() throws {
        for text in [
            "", "a", "plain text of some length", "é ü 🚀 and ~ > = { } [ ]", String(repeating: "x", count: 99),
        ] {
            #expect(JSONValue.string(text).serialized() == Array("\"\(text)\"".utf8))
        }
    }
}
