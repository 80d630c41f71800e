import Switchyard

/// What a flow event or a delivered result does: requirements checked first (the first that fails refuses the
/// whole change with its code and message), then data operations, then a chain of steps from the coordinator
/// that handles it — all in the one transaction, so nothing of it stays when any part fails.
struct Handler: Sendable, Hashable {
    struct Requirement: Sendable, Hashable {
        let condition: Condition
        let code: String
        let message: Template
    }

    var requirements: [Requirement] = []
    var data: [DataOperation] = []
    var steps: [StepTemplate] = []
    /// Whether the event goes on to the parent coordinators after this one handled it.
    var bubble = false

    static let members = ["require", "data", "steps", "bubble"]

    static func read(
        _ members: [String: JSONValue], at pointer: String, _ reader: DefinitionReader
    ) -> Handler {
        var handler = Handler()
        if let list = reader.array(members["require"], at: Pointer.append(pointer, "require"), "requirements") {
            for (index, element) in list.enumerated() {
                let at = Pointer.append(Pointer.append(pointer, "require"), index)
                guard
                    let requirement = reader.object(
                        element, at: at, "a requirement", allowed: ["if", "code", "message"],
                        required: ["if", "code", "message"]),
                    let condition = requirement["if"].flatMap({
                        Condition.read($0, at: Pointer.append(at, "if"), reader)
                    }),
                    let code = reader.name(requirement["code"], at: Pointer.append(at, "code"), "error code"),
                    let message = reader.template(requirement["message"], at: Pointer.append(at, "message"), "message")
                else { continue }
                handler.requirements.append(Requirement(condition: condition, code: code, message: message))
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

    /// The context paths its requirements and templates read.
    var paths: [String] {
        requirements.flatMap { $0.condition.paths + $0.message.paths }
            + data.flatMap { operation -> [String] in
                switch operation {
                case .set(_, let value), .append(_, let value): value.paths
                default: []
                }
            } + steps.flatMap(\.json.paths)
    }
}
