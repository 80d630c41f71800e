import Switchyard

/// A route's guard as data: `{"allowIf": <condition>, "redirect": [<step>, …]}` (the steps run from the root
/// coordinator, and the route waits, pending, until it is allowed) or `{"allowIf": …, "refuse": {"code", "message"}}`.
struct GuardDefinition: Sendable, Hashable {
    enum Otherwise: Sendable, Hashable {
        case redirect([StepTemplate])
        case refuse(code: String, message: Template)
    }

    let allowIf: Condition
    let otherwise: Otherwise

    static func read(_ value: JSONValue, at pointer: String, _ reader: DefinitionReader) -> GuardDefinition? {
        guard
            let members = reader.object(
                value, at: pointer, "a guard", allowed: ["allowIf", "redirect", "refuse"], required: ["allowIf"]),
            let allowIf = members["allowIf"].flatMap({
                Condition.read($0, at: Pointer.append(pointer, "allowIf"), reader)
            })
        else { return nil }
        switch (members["redirect"], members["refuse"]) {
        case (let redirect?, nil):
            return GuardDefinition(
                allowIf: allowIf,
                otherwise: .redirect(StepTemplate.readList(redirect, at: Pointer.append(pointer, "redirect"), reader)))
        case (nil, let refuse?):
            let at = Pointer.append(pointer, "refuse")
            guard
                let refusal = reader.object(
                    refuse, at: at, "a refusal", allowed: ["code", "message"], required: ["code", "message"]),
                let code = reader.name(refusal["code"], at: Pointer.append(at, "code"), "error code"),
                let message = reader.template(refusal["message"], at: Pointer.append(at, "message"), "message")
            else { return nil }
            return GuardDefinition(allowIf: allowIf, otherwise: .refuse(code: code, message: message))
        default:
            reader.error("invalidGuard", at: pointer, "a guard has either 'redirect' or 'refuse'")
            return nil
        }
    }
}
