// JSON Patch (RFC 6902) as the live stream sends it: `test`, `add`, `remove` and `replace` on plain JSON values.

/** The tokens of a JSON Pointer (RFC 6901). */
function tokens(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`'${pointer}' is not a JSON Pointer`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function has(container, key) {
  return Array.isArray(container) ? /^\d+$/.test(key) && Number(key) < container.length
    : Object.prototype.hasOwnProperty.call(container, key);
}

/**
 * Returns `doc` with `patch` applied; `doc` itself is not changed. Throws when an operation does not fit (a failed
 * `test` among them: the patch was made for another version).
 */
export function applyPatch(doc, patch) {
  if (!Array.isArray(patch)) throw new Error('a patch is an array');
  let result = structuredClone(doc);
  for (const { op, path, value } of patch) {
    const keys = tokens(path);
    if (keys.length === 0) {
      if (op === 'test') { if (!same(result, value)) throw new Error('test failed'); continue; }
      if (op === 'add' || op === 'replace') { result = structuredClone(value); continue; }
      throw new Error(`cannot ${op} the whole document`);
    }
    let parent = result;
    for (const key of keys.slice(0, -1)) {
      if (parent === null || typeof parent !== 'object' || !has(parent, key)) throw new Error(`${path}: no ${key}`);
      parent = parent[key];
    }
    if (parent === null || typeof parent !== 'object') throw new Error(`${path}: the parent is not a container`);
    const last = keys.at(-1);
    const list = Array.isArray(parent);
    switch (op) {
      case 'test':
        if (!has(parent, last) || !same(parent[last], value)) throw new Error(`test ${path} failed`);
        break;
      case 'add':
        if (list) {
          const index = last === '-' ? parent.length : Number(last);
          if (!(index >= 0 && index <= parent.length)) throw new Error(`${path}: index out of range`);
          parent.splice(index, 0, value);
        } else parent[last] = value;
        break;
      case 'replace':
        if (!has(parent, last)) throw new Error(`${path}: nothing to replace`);
        parent[last] = value;
        break;
      case 'remove':
        if (!has(parent, last)) throw new Error(`${path}: nothing to remove`);
        if (list) parent.splice(Number(last), 1); else delete parent[last];
        break;
      default:
        throw new Error(`unsupported operation '${op}'`);
    }
  }
  return result;
}
