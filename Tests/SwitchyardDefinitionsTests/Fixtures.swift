/// A small mail app as data: a login (an event with a requirement that sets data and switches root), two tabs with
/// a badge counted from the data, a list bound to the data, a guarded compose screen, a picker that finishes with
/// a result, and a deep link that waits for the login.
let mailDefinition = """
    {
      "name": "mail",
      "root": "App",
      "data": {"messages": [{"id": "m1", "subject": "Hello", "read": false}, {"id": "m2", "subject": "Lunch?", "read": true}]},
      "coordinators": {
        "App": {
          "kind": "root", "initial": "login",
          "routes": {
            "login": {"kind": "root", "target": "Login"},
            "home": {"kind": "root", "target": "Home"}
          },
          "events": {
            "login": {
              "fields": ["user"], "summary": "Log in as the user typed.",
              "require": [{"if": {"path": "fields.user", "isEmpty": false}, "code": "emptyUser", "message": "Type a name"}],
              "data": [{"set": "user", "value": "{{fields.user}}"}],
              "steps": [{"action": "root", "route": "home"}]
            },
            "logout": {"data": [{"unset": "user"}], "steps": [{"action": "root", "route": "login"}]}
          }
        },
        "Home": {
          "kind": "tabs", "tabs": ["inbox", "settings"],
          "routes": {
            "inbox": {"kind": "tab", "target": "Inbox", "item": {"title": "Inbox", "icon": "tray", "badge": "{{count(data.messages)}}"}},
            "settings": {"kind": "tab", "target": "Settings", "item": {"title": "Settings", "icon": "gear"}}
          }
        },
        "Inbox": {
          "kind": "stack", "initial": "list",
          "routes": {
            "list": {"kind": "root", "target": "MessageList"},
            "message": {"target": "Message", "input": "string"},
            "compose": {"target": "Compose", "presentation": "modal",
                        "guard": {"allowIf": {"path": "data.user", "equals": "ada"}, "refuse": {"code": "notAllowed", "message": "Only Ada writes, not {{data.user}}"}}},
            "pickLabel": {"target": "LabelPicker", "presentation": "modal",
                          "onResult": {"data": [{"set": "label", "value": "{{result}}"}]}}
          },
          "events": {
            "markRead": {"data": [{"toggle": "messages[id={{payload.id}}].read"}]}
          }
        }
      },
      "screens": {
        "Login": {"title": "Log in", "content": [
          {"type": "textField", "id": "user", "label": "Name"},
          {"type": "button", "title": "Log in", "action": {"type": "event", "name": "login", "fields": ["user"]}}
        ]},
        "MessageList": {"title": "Inbox of {{data.user}}", "content": [
          {"type": "list", "items": "data.messages",
           "row": {"id": "{{item.id}}", "title": "{{item.subject}}", "icon": "{{#item.read}}circle{{/item.read}}{{^item.read}}circle.fill{{/item.read}}",
                   "action": {"type": "transition", "steps": [{"action": "push", "route": "message", "input": "{{item.id}}"}]}}}
        ]},
        "Message": {"title": "Message {{input}}", "content": [
          {"type": "toggle", "id": "read", "title": "Read", "isOn": "false",
           "action": {"type": "event", "name": "markRead", "payload": {"id": "{{input}}"}}}
        ]},
        "Compose": {"title": "New message"},
        "LabelPicker": {"title": "Pick a label", "result": "string", "content": [
          {"type": "button", "title": "Work", "action": {"type": "transition", "steps": [{"action": "finish", "result": "work"}]}}
        ]},
        "Settings": {"title": "Settings", "content": [
          {"type": "button", "title": "Log out", "role": "destructive", "action": {"type": "event", "name": "logout"}}
        ]}
      },
      "deepLinks": [
        {"pattern": "mail://message/:id", "examples": ["mail://message/m1"],
         "waitUntil": {"path": "data.user", "exists": true},
         "steps": [{"action": "child"}, {"action": "focus", "route": "inbox"}, {"action": "push", "route": "message", "input": "{{link.id}}"}]}
      ]
    }
    """
