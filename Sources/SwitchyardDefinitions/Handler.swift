import Switchyard

/// One way a flow event or a delivered result is handled, taken when its `when` holds: requirements checked first
/// (the first that fails refuses the whole change with its code, category and message), then data operations,
/// then a chain of steps from the coordinator that handles it (or, with `from`, from the coordinator of that name
/// nearest the visible screen) — all in the one transaction, so nothing of it stays when any part fails.
struct Handler: Sendable, Hashable {
    struct Requirement: Sendable, Hashable {
        let condition: Condition
        let code: String
        let category: NavigationError.Category
        let message: Template
    }

    var when: Condition?
    var requirements: [Requirement] = []
    var data: [DataOperation] = []
    var steps: [StepTemplate] = []
    /// The coordinator the steps run from (nil: the one that handles).
    var from: String?
    /// Whether the event goes on to the parent coordinators after this one handled it.
    var bubble = false
    /// Where it is written, for the check's findings.
    var pointer = ""

    static let members = ["when", "require", "data", "steps", "from", "bubble"]
    /// The categories a requirement can refuse with: 422 and 409.
    static let categories: [NavigationError.Category] = [.invalidInput, .conflict]

    static func read(
        _ members: [String: JSONValue], at pointer: String, _ reader: DefinitionReader
    ) -> Handler {
        var handler = Handler()
        handler.pointer = pointer
        handler.when = members["when"].flatMap { Condition.read($0, at: Pointer.append(pointer, "when"), reader) }
        handler.from = reader.name(members["from"], at: Pointer.append(pointer, "from"), "coordinator name")
        if let list = reader.array(members["require"], at: Pointer.append(pointer, "require"), "requirements") {
            for (index, element) in list.enumerated() {
                let at = Pointer.append(Pointer.append(pointer, "require"), index)
                guard
                    let requirement = reader.object(
                        element, at: at, "a requirement", allowed: ["if", "code", "category", "message"],
                        required: ["if", "code", "message"]),
                    let condition = requirement["if"].flatMap({
                        Condition.read($0, at: Pointer.append(at, "if"), reader)
                    }),
                    let code = reader.name(requirement["code"], at: Pointer.append(at, "code"), "error code"),
                    let message = reader.template(requirement["message"], at: Pointer.append(at, "message"), "message")
                else { continue }
                let category = reader.choice(
                    requirement["category"] ?? .string("invalidInput"), at: Pointer.append(at, "category"),
                    "error category", categories.map(\.rawValue)
                ).flatMap(NavigationError.Category.init(rawValue:))
                handler.requirements.append(
                    Requirement(
                        condition: condition, code: code, category: category ?? .invalidInput, message: message))
            }
        }
        if let list = reader.array(members["data"], at: Pointer.append(pointer, "data"), "data operations") {
            handler.data = list.enumerated().compactMap {
                DataOperation.read($1, at: Pointer.append(Pointer.append(pointer, "data"), $0), reader)
            }
        }
        handler.steps = StepTemplate.readList(members["steps"], at: Pointer.append(pointer, "steps"), reader)
        handler.bubble = reader.bool(members["bubble"], at: Pointer.append(pointer, "bubble"), "bubble") ?? false
        return handler
    }
}
