import Switchyard

/// What a coordinator declared as data knows: its definition and route table, the compiled app (to make what its
/// routes target), the input it was made with, and its session's data.
struct CoordinatorContext {
    let definition: CoordinatorDefinition
    let table: RouteTable
    let compiled: CompiledDefinition
    let input: JSONValue?
    let data: SessionData
    let savesState: Bool
}
