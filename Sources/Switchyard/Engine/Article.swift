/// The indefinite article of a word put into a message at run time (`an element type`, `a tabs coordinator`), chosen
/// as the word is said, not only as it is spelt.
package enum Article {
    /// `a` or `an` for `phrase`, by its first word: `an` before a vowel sound (`an element`, `an image`,
    /// `an AppCoordinator`, `an hour`, `an HTTP…`), `a` otherwise (`a route`, `a user`, `a one-off`, `a URL`).
    package static func indefinite(_ phrase: some StringProtocol) -> String {
        let word = phrase.prefix { $0.isLetter || $0.isNumber }
        guard let first = word.first else { return "a" }
        // An initialism is said letter by letter (two capitals first: `URL`, `HTTPRoute`, `IOError`):
        // `an` before a letter whose name starts with a vowel sound.
        if word.prefix(2).allSatisfy(\.isUppercase), word.count > 1 {
            return "AEFHILMNORSX".contains(first) ? "an" : "a"
        }
        let lower = word.lowercased()
        if silentH.contains(where: { lower.hasPrefix($0) }) { return "an" }
        if consonantSounds.contains(where: { lower.hasPrefix($0) }) { return "a" }
        if first.isNumber { return first == "8" || word == "11" || word == "18" ? "an" : "a" }
        return "aeiou".contains(lower.first ?? "x") ? "an" : "a"
    }

    /// `phrase` with its indefinite article: `an element type`.
    package static func withIndefinite(_ phrase: some StringProtocol) -> String {
        "\(indefinite(phrase)) \(phrase)"
    }

    /// Words spelt with a vowel but said with a consonant (`a user`, `a one-time`, `a European`).
    private static let consonantSounds = ["uni", "use", "usu", "uti", "one", "once", "eu", "ewe"]
    /// Words spelt with `h` but said with a vowel (`an hour`).
    private static let silentH = ["hour", "honest", "honor", "honour", "heir"]
}
