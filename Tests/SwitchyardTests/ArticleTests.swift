import Switchyard
import Testing

/// Messages put words into sentences at run time (`'imag' is not an element type`): the article goes by the sound.
@Suite struct ArticleTests {
    @Test(arguments: [
        ("element type", "an"), ("image element", "an"), ("action type", "an"), ("error category", "an"),
        ("AppCoordinator", "an"), ("OnboardingCoordinator", "an"), ("hour", "an"), ("HTTP route", "an"),
        ("8-bit value", "an"), ("route kind", "a"), ("tabs coordinator", "a"), ("navigation coordinator", "a"),
        ("text style", "a"), ("user", "a"), ("unique name", "a"), ("one-off", "a"), ("URL scheme", "a"),
        ("TodosCoordinator", "a"), ("", "a"),
    ])
    func theArticleGoesByTheSound(phrase: String, article: String) {
        #expect(Article.indefinite(phrase) == article, "\(phrase)")
        #expect(Article.withIndefinite(phrase) == "\(article) \(phrase)")
    }
}
