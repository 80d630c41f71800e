/// A closed set of wire names that a newer server may extend: a name this client does not know decodes as
/// `unknown` instead of failing the whole document.
public protocol LenientEnum: RawRepresentable<String>, Decodable, Sendable {
    /// What a name this client does not know decodes as.
    static var unknown: Self { get }
}

extension LenientEnum {
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        self = Self(rawValue: name) ?? .unknown
    }
}
