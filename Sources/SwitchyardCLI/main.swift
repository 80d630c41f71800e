print("switchyard: the server is not wired up yet")
