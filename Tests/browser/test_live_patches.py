"""The page follows changes made elsewhere through the stream's JSON Patches, and its patch code is exact."""
import json

APPLY_JS = """
const [doc, patch, done] = arguments;
import('/js/switchyard-client.js').then((m) => {
  try { done({ ok: m.applyPatch(doc, patch), doc }); } catch (e) { done({ error: String(e.message || e), doc }); }
});
"""


def apply_in_page(page, doc, patch):
    return page.d.execute_async_script(APPLY_JS, doc, patch)


def test_the_page_follows_another_clients_changes_by_patches(page):
    page.log_in()
    session = page.session_id()
    links = ["jumper://io.idevs/todo/buy-milk", "jumper://io.idevs/settings", "stinsenapp://todo/hello-world",
             "jumper://io.idevs/home", "jumper://io.idevs/todo/write-docs"]
    for link in links:
        status, answer = page.api("POST", f"/api/sessions/{session}/deeplinks", {"url": link})
        assert status == 200, answer
        page.wait(lambda d: page.version() == answer["version"], message=f"the page did not reach v{answer['version']}")
        path = "/".join(answer["visible"]["path"])
        page.wait(lambda d: d.find_element("id", "phone").get_attribute("data-path") == path,
                  message=f"the page does not show {path}")
        page.wait_route(answer["visible"]["path"][-1])
    refetches = page.d.find_element("id", "phone").get_attribute("data-refetches")
    assert refetches is None, f"every patch applied to the state shown ({refetches} refetches)"


def test_the_pages_patch_code_applies_the_servers_operations_and_refuses_a_failed_test(page):
    page.open_new()
    doc = {"version": 3, "tree": {"stack": [{"id": "i1"}, {"id": "i2"}], "a~b": 1, "c/d": 2}, "gone": True}
    patch = [
        {"op": "test", "path": "/version", "value": 3},
        {"op": "remove", "path": "/gone"},
        {"op": "replace", "path": "/tree/a~0b", "value": [1, 2]},
        {"op": "add", "path": "/tree/stack/2", "value": {"id": "i3"}},
        {"op": "remove", "path": "/tree/stack/0"},
        {"op": "add", "path": "/tree/c~1d", "value": None},
        {"op": "replace", "path": "/version", "value": 4},
    ]
    result = apply_in_page(page, doc, patch)
    assert result.get("ok") == {"version": 4, "tree": {"stack": [{"id": "i2"}, {"id": "i3"}], "a~b": [1, 2],
                                                        "c/d": None}}, result
    assert result["doc"] == doc, "the document given is not changed"
    stale = apply_in_page(page, doc, [{"op": "test", "path": "/version", "value": 2}] + patch[1:])
    assert "test" in stale.get("error", ""), stale
    for bad in ([{"op": "remove", "path": "/missing"}], [{"op": "move", "path": "/a", "from": "/b"}],
                [{"op": "add", "path": "/tree/stack/9", "value": 1}], {"op": "add"}):
        assert "error" in apply_in_page(page, doc, bad), json.dumps(bad)
