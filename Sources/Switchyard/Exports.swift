// The engine's public API speaks `JSONValue` (route inputs, event payloads, documents): importing Switchyard brings
// the JSON module along, so that apps need one import.
@_exported import SwitchyardJSON
