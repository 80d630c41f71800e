/// A value kept on the heap: 8 bytes where it is stored (and as an optional), for a field that is large and rarely
/// set, in a value stored many times (the tree's nodes and entries) or once per engine.
enum Indirect<Value> {
    indirect case value(Value)

    /// The value.
    var value: Value {
        switch self {
        case .value(let value): value
        }
    }
}
