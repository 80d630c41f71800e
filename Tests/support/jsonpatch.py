"""JSON Patch (RFC 6902) as the Switchyard stream sends it (`test`, `add`, `remove`, `replace`), for the Python test
harnesses: they rebuild each version's document from `event: patch` events the way a client does. Standard library
only (the kill loop runs on the system Python)."""
import copy


class PatchError(Exception):
    """An operation that does not fit the document (a failed `test` among them)."""


def _tokens(pointer):
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"{pointer!r} is not a JSON Pointer")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _has(container, key):
    if isinstance(container, list):
        return key.isdigit() and int(key) < len(container)
    return isinstance(container, dict) and key in container


def apply(document, patch):
    """The document `patch` makes of `document` (which is not changed); raises PatchError when it does not apply."""
    if not isinstance(patch, list):
        raise PatchError("a patch is a list")
    result = copy.deepcopy(document)
    for operation in patch:
        op, path, value = operation.get("op"), operation.get("path"), operation.get("value")
        if not isinstance(path, str):
            raise PatchError(f"an operation without a path: {operation}")
        keys = _tokens(path)
        if not keys:
            if op == "test":
                if result != value:
                    raise PatchError("test of the whole document failed")
            elif op in ("add", "replace"):
                result = copy.deepcopy(value)
            else:
                raise PatchError(f"cannot {op} the whole document")
            continue
        parent = result
        for key in keys[:-1]:
            if not _has(parent, key):
                raise PatchError(f"{path}: no {key}")
            parent = parent[int(key)] if isinstance(parent, list) else parent[key]
        last = keys[-1]
        if isinstance(parent, list):
            index = len(parent) if last == "-" else int(last) if last.isdigit() else -1
            if op == "add" and 0 <= index <= len(parent):
                parent.insert(index, value)
            elif op in ("test", "replace", "remove") and 0 <= index < len(parent):
                if op == "test" and parent[index] != value:
                    raise PatchError(f"test {path} failed")
                if op == "replace":
                    parent[index] = value
                if op == "remove":
                    del parent[index]
            else:
                raise PatchError(f"{op} {path}: no such element")
        elif isinstance(parent, dict):
            if op == "add":
                parent[last] = value
            elif op in ("test", "replace", "remove") and last in parent:
                if op == "test" and parent[last] != value:
                    raise PatchError(f"test {path} failed")
                if op == "replace":
                    parent[last] = value
                if op == "remove":
                    del parent[last]
            else:
                raise PatchError(f"{op} {path}: no such member")
        else:
            raise PatchError(f"{op} {path}: the parent is not a container")
    return result
