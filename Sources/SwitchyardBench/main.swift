print("switchyard-bench: not implemented yet")
