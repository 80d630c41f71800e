import Switchyard

/// One-pass decodings of the other change bodies (``PlainJSONDecodable``): every change endpoint reads its common
/// body without `Codable`. Each gives nil for anything it is not sure of, which `Codable` then decodes or explains,
/// so both paths agree on every body.
extension EventRequest: PlainJSONDecodable {
    init?(plainJSON value: JSONValue) {
        guard case .object(let members) = value, case .string(let name)? = members["name"],
            let from = PlainMember.string(members["from"]),
            let version = PlainMember.integer(members["expectedVersion"])
        else { return nil }
        self.name = name
        self.from = from
        expectedVersion = version
        switch members["payload"] {
        case nil, .null?: payload = nil
        case let payload?: self.payload = payload
        }
        switch members["fields"] {
        case nil, .null?: fields = nil
        case .object(let object)?:
            var fields: [String: String] = [:]
            for (key, field) in object {
                guard case .string(let text) = field else { return nil }
                fields[key] = text
            }
            self.fields = fields
        default: return nil
        }
    }
}

extension DeepLinkRequest: PlainJSONDecodable {
    init?(plainJSON value: JSONValue) {
        guard case .object(let members) = value, case .string(let url)? = members["url"],
            let version = PlainMember.integer(members["expectedVersion"])
        else { return nil }
        self.url = url
        expectedVersion = version
    }
}

extension RestoreRequest: PlainJSONDecodable {
    init?(plainJSON value: JSONValue) {
        guard case .object(let members) = value, let version = PlainMember.integer(members["version"]) ?? nil,
            let expected = PlainMember.integer(members["expectedVersion"])
        else { return nil }
        self.version = version
        expectedVersion = expected
    }
}

/// An optional member read in one pass: `.some(nil)` when it is absent or null, `.some(value)` when it is of the
/// type asked for, nil when it is of another type (the caller then leaves the body to `Codable`).
enum PlainMember {
    static func string(_ member: JSONValue?) -> String?? {
        switch member {
        case nil, .null?: .some(nil)
        case .string(let text)?: .some(text)
        default: nil
        }
    }

    static func integer(_ member: JSONValue?) -> Int?? {
        switch member {
        case nil, .null?: .some(nil)
        case .number(let number)?: Int(exactly: number).map { .some($0) }
        default: nil
        }
    }
}
