import SwitchyardCommandLine
import TodoDemo

// `switchyard`: the demo app behind the one-call command line every Switchyard server uses.
SwitchyardCommandLine.main(apps: [TodoDemo.app], name: "switchyard", version: "0.1.0")
