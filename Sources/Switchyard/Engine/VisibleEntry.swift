/// One entry on the visible path, in the order a renderer stacks them.
struct VisibleEntry {
    let owner: NodeID
    let entry: EntryState
    let slot: EntrySlot
}
