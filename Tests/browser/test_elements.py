"""The page renders every screen element type the OpenAPI document declares (a fixture holding one of each)."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]

# One example of each element type, and how the page shows it.
FIXTURE = {
    "text": ({"type": "text", "text": "Hello", "style": "title"}, "p.t-title"),
    "image": ({"type": "image", "systemName": "star.fill", "color": "#ffcc00"}, "[data-testid='image-star.fill']"),
    "textField": ({"type": "textField", "id": "name", "label": "Name", "placeholder": "", "value": "Ada",
                   "secure": False}, "input[data-field='name']"),
    "toggle": ({"type": "toggle", "id": "on", "title": "On", "isOn": True,
                "action": {"type": "event", "from": "i2", "name": "toggled", "payload": None, "fields": ["on"]}},
               "input[type='checkbox'][role='switch']"),
    "button": ({"type": "button", "title": "Go", "role": "primary", "disabled": False,
                "action": {"type": "transition", "coordinator": "n1", "steps": [{"action": "back"}]}}, "button"),
    "list": ({"type": "list", "rows": [{"id": "a", "title": "A row",
                                        "action": {"type": "transition", "coordinator": "n1",
                                                   "steps": [{"action": "push", "route": "a"}]}}]}, "li"),
}


def declared_element_types():
    document = json.loads((ROOT / "docs" / "openapi.json").read_text())
    schemas = document["components"]["schemas"]
    return [schemas[ref["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["const"]
            for ref in schemas["Element"]["oneOf"]]


def test_the_fixture_holds_every_declared_element_type():
    assert sorted(FIXTURE) == sorted(declared_element_types()), "add the new element type to FIXTURE"


def test_the_page_renders_every_element_type(driver, base_url):
    driver.get(base_url + "/")
    screen = {"title": "Everything", "content": [example for example, _ in FIXTURE.values()]}
    rendered = driver.execute_async_script(
        """
        const [screen, selectors, done] = arguments;
        import('/js/screen.js').then((m) => {
          const page = m.renderPage({ key: 'fixture', route: 'fixture', screen }, () => {});
          document.body.append(page);
          const found = {};
          for (const [type, selector] of Object.entries(selectors)) found[type] = !!page.querySelector(selector);
          done({ found, unsupported: page.querySelectorAll('.unknown-item').length,
                 children: page.querySelector('.page-body').children.length });
        }).catch((error) => done({ error: String(error) }));
        """,
        screen, {kind: selector for kind, (_, selector) in FIXTURE.items()})
    assert "error" not in rendered, rendered
    assert rendered["unsupported"] == 0
    assert rendered["children"] == len(FIXTURE)
    missing = [kind for kind, found in rendered["found"].items() if not found]
    assert not missing, f"not rendered as expected: {missing}"
