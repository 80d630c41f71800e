"""The app definition format's JSON Schema (Public/schema/app-definition.json) is a valid draft 2020-12 schema,
accepts the example definitions and the docs' JSON examples, refuses a misspelt member, and is what the server
serves at /schema/app-definition.json.
    .venv/bin/python Tests/schema/definitions.py BASE_URL"""
import json
import pathlib
import sys
import urllib.request

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]
schema_path = ROOT / "Public/schema/app-definition.json"
schema = json.loads(schema_path.read_text())
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

import yaml  # PyYAML comes with schemathesis

examples = ROOT / "Examples/Definitions"
sound = [json.loads(path.read_text()) for path in sorted(examples.glob("*.json"))]
sound += [yaml.safe_load(path.read_text()) for path in sorted(examples.rglob("*.yaml"))]
docs = (ROOT / "docs/app-definitions.md").read_text()
sound += [json.loads(block.split("\n", 1)[1].split("\n```", 1)[0])
          for block in docs.split("<!-- definition -->\n```")[1:] if block.startswith("json")]
assert len(sound) >= 7, len(sound)
for definition in sound:
    errors = [error.message for error in validator.iter_errors(definition)]
    assert not errors, (definition["name"], errors[:3])

broken = json.loads((ROOT / "Tests/example/broken-app.json").read_text())
messages = [error.message for error in validator.iter_errors(broken)]
assert any("'presentaton' was unexpected" in message for message in messages), messages

with urllib.request.urlopen(sys.argv[1] + "/schema/app-definition.json", timeout=10) as response:
    assert response.status == 200 and response.headers["Content-Type"].startswith("application/json")
    assert response.read() == schema_path.read_bytes()
print(f"schema tests: the app definition schema is valid, accepts {len(sound)} definitions, refuses a misspelt "
      "member, and is served as written")
