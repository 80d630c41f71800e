"""A client generated from the served OpenAPI document by a well-known generator (openapi-python-client, from
PyPI) works against the real server: the happy path, a step as a typed union member, and the two problems a client
must act on, a guard's redirect (409 `RedirectedProblem`) and a stale version (412 `StaleVersionProblem`), both
parsed into their typed models with the session's version and state.
    .venv/bin/python Tests/schema/generated_client.py BASE_URL"""
import importlib
import json
import pathlib
import subprocess
import sys
import tempfile
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASE = sys.argv[1]
GENERATOR = pathlib.Path(sys.executable).parent / "openapi-python-client"

with tempfile.TemporaryDirectory(prefix="switchyard-generated-") as folder:
    document = pathlib.Path(folder) / "openapi.json"
    with urllib.request.urlopen(BASE + "/api/openapi.json", timeout=10) as response:
        document.write_bytes(response.read())
    package = pathlib.Path(folder) / "switchyard_client"
    done = subprocess.run([GENERATOR, "generate", "--path", document, "--meta", "none", "--output-path", package],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    # Only the YAML bodies (a definition sent as application/yaml) are beyond this generator.
    warnings = [block for block in (done.stdout + done.stderr).split("WARNING")[1:] if "yaml" not in block]
    assert not warnings, warnings[:3]
    assert "Unable to process schema" not in done.stdout + done.stderr, done.stdout

    sys.path.insert(0, folder)
    client_module = importlib.import_module("switchyard_client")
    sessions = importlib.import_module("switchyard_client.api.sessions")
    models = importlib.import_module("switchyard_client.models")
    for name in ("create_session", "post_transitions", "post_event"):
        importlib.import_module(f"switchyard_client.api.sessions.{name}")
    client = client_module.Client(base_url=BASE, raise_on_unexpected_status=True)

    created = sessions.create_session.sync_detailed(client=client)
    assert created.status_code == 201, created
    session = json.loads(created.content)["session"]

    def event(name, **fields):
        body = models.EventRequest(name=name)
        if fields:
            body.fields = models.EventRequestFieldsType0.from_dict(fields)
        answer = sessions.post_event.sync_detailed(session, client=client, body=body)
        assert answer.status_code == 200, (name, answer.status_code, answer.content[:300])

    event("completeOnboarding")
    event("login", username="ada")
    tab = sessions.post_transitions.sync_detailed(
        session, client=client,
        body=models.SelectTabTransition(action=models.SelectTabTransitionAction.SELECTTAB, route="settings"))
    assert tab.status_code == 200, tab.content[:300]
    version = json.loads(tab.content)["version"]

    # A guard redirects the push of `admin` (ada is not an admin): a typed 409 saying where the session is now.
    chain = models.TransitionChain(
        coordinator="SettingsCoordinator", steps=[models.PushStep(action=models.PushStepAction.PUSH, route="admin")])
    redirected = sessions.post_transitions.sync_detailed(session, client=client, body=chain)
    assert redirected.status_code == 409, redirected.content[:300]
    assert isinstance(redirected.parsed, models.RedirectedProblem), type(redirected.parsed)
    assert redirected.parsed.current_version == version + 1, (redirected.parsed.current_version, version)
    assert redirected.parsed.state.version == version + 1

    # A change decided on an old version: a typed 412 with the version and state to decide again on.
    stale = sessions.post_transitions.sync_detailed(
        session, client=client, if_match=f'"{version}"',
        body=models.BackTransition(action=models.BackTransitionAction.BACK))
    assert stale.status_code == 412, stale.content[:300]
    assert isinstance(stale.parsed, models.StaleVersionProblem), type(stale.parsed)
    assert stale.parsed.current_version == version + 1
    assert stale.parsed.code == models.StaleVersionProblemCode.STALEVERSION

print(f"generated client: {GENERATOR.name} handles 201, a typed 409 redirect and a typed 412 stale version")
