import Switchyard
import Testing

@testable import SwitchyardDefinitions

/// The order of a severity's findings: by place in the text when both have one, else by pointer, and stable.
@Suite struct FindingOrderTests {
    private func finding(
        _ code: String, _ pointer: String, _ place: (line: Int, column: Int)? = nil
    )
        -> DefinitionDiagnostic
    {
        DefinitionDiagnostic(
            .error, code, at: pointer, code, position: place.map { SourcePosition(line: $0.line, column: $0.column) })
    }

    @Test func byLineThenColumnThenPointerThenAsFoundAndThoseWithoutAPlaceLastByPointer() {
        let findings = [
            finding("noPlace10", "/list/10"),
            finding("noPlace9", "/list/9"),
            finding("line2Z", "/z", (2, 1)),
            finding("line3", "/a", (3, 5)),
            finding("line2Y", "/y", (2, 1)),
            finding("line2YAgain", "/y", (2, 1)),
            finding("line1Column9", "/b", (1, 9)),
            finding("line1Column2", "/c", (1, 2)),
        ]
        let expected = [
            "line1Column2", "line1Column9", "line2Y", "line2YAgain", "line2Z", "line3", "noPlace9", "noPlace10",
        ]
        #expect(AppDefinition.inPlaceOrder(findings).map(\.code) == expected)
        // The same order whatever order they were found in, but for those at one place with one pointer.
        #expect(
            AppDefinition.inPlaceOrder(findings.reversed()).map(\.code)
                == expected.map {
                    $0 == "line2Y" ? "line2YAgain" : $0 == "line2YAgain" ? "line2Y" : $0
                })
    }
}
