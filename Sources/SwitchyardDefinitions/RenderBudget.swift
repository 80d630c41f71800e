/// How much template work a rendering may do: steps (each text, tag and list element rendered) and bytes written.
/// One budget is shared by all the templates of one screen (``DefinedScreen``), of one handler's run, of one
/// coordinator's decoration: past it, templates render nothing more and the budget is ``exceeded``, so no data a
/// session gathers can make a rendering run for long (a template nesting sections over lists asks for the product
/// of their lengths).
final class RenderBudget {
    /// The steps one budget allows: a screen of a few hundred rows with a dozen tags each uses a few thousand.
    static let steps = 100_000
    /// The bytes one budget allows (the state document's own limit is 256 KiB by default).
    static let bytes = 2 << 20
    /// What a budget allows, as refusals say it: `100000 template steps or 2 MiB of text`.
    static let allowance = "\(steps) template steps or \(bytes >> 20) MiB of text"

    private(set) var steps: Int
    private(set) var bytes: Int
    /// Whether a rendering asked for more than the budget allowed (what it wrote is cut short).
    private(set) var exceeded = false

    init(steps: Int = RenderBudget.steps, bytes: Int = RenderBudget.bytes) {
        self.steps = steps
        self.bytes = bytes
    }

    /// Takes one step; false (and ``exceeded``) when none is left, or once anything ran out.
    func step() -> Bool {
        spend(1)
    }

    /// Takes `count` steps (the work of a transform over a list, a value written as JSON); false (and
    /// ``exceeded``) when fewer are left, or once anything ran out: then nothing more is rendered.
    func spend(_ count: Int) -> Bool {
        guard !exceeded, steps >= count else {
            exceeded = true
            steps = 0
            return false
        }
        steps -= count
        return true
    }

    /// How many of `count` bytes may still be written (all, or what is left, marking ``exceeded``).
    func write(_ count: Int) -> Int {
        guard count > bytes else {
            bytes -= count
            return count
        }
        exceeded = true
        defer { bytes = 0 }
        return bytes
    }
}
