// Turns a state document's coordinator tree into what the phone shows: presentation layers (the base
// plus one per modal / full-screen item), each holding the stack of pages visible in it.

/**
 * @returns {{layers: Array, alert: object|null, nodes: Set<string>, entries: Set<string>, pushDepth: number}}
 *   layers[i] = { key, presentation: 'base'|'modal'|'fullScreen', item, owner, pages: [page] }
 *   page      = { key, route, screen, owner, entry, tab, tint }
 *   tab       = { node, selected } — the tab coordinator whose bar is shown under the page, if any
 */
export function buildView(doc) {
  const base = { key: 'base', presentation: 'base', item: null, owner: null, pages: [] };
  const layers = [base];
  const nodes = new Set();
  const entries = new Set();
  const alerts = [];
  let layer = base;

  function visitNode(node, ctx) {
    if (!node) return;
    nodes.add(node.id);
    if (node.alert) alerts.push({ node, alert: node.alert });
    const tint = node.decoration?.tint || ctx.tint;
    if (node.kind === 'tab') {
      const tabs = node.tabs || [];
      const selected = tabs.find((t) => t.id === node.selectedTabId)
        || tabs.find((t) => t.route === node.selectedTab) || tabs[0] || null;
      if (selected) visitEntry(selected, node, { tab: { node, selected }, tint });
      visitStack(node, { tab: ctx.tab, tint });
    } else {
      if (node.root) visitEntry(node.root, node, { tab: ctx.tab, tint });
      visitStack(node, { tab: ctx.tab, tint });
    }
  }

  function visitStack(owner, ctx) {
    let tab = ctx.tab;
    for (const item of owner.stack || []) {
      if (item.presentation === 'modal' || item.presentation === 'fullScreen') {
        layer = { key: item.id, presentation: item.presentation, item, owner, pages: [] };
        layers.push(layer);
        tab = null; // a presentation covers any tab bar below it
      }
      visitEntry(item, owner, { tab, tint: ctx.tint });
    }
  }

  function visitEntry(entry, owner, ctx) {
    entries.add(entry.id);
    if (entry.coordinator) {
      visitNode(entry.coordinator, ctx);
    } else {
      layer.pages.push({
        key: entry.id, route: entry.route, screen: entry.screen || null, owner, entry,
        tab: ctx.tab, tint: ctx.tint,
      });
    }
  }

  visitNode(doc.tree, { tab: null, tint: null });
  const pushDepth = layers.reduce((n, l) => n + Math.max(0, l.pages.length - 1), 0);
  return { layers, alert: alerts.at(-1) || null, nodes, entries, pushDepth };
}

/** How the top page of a layer changed between two renders: 'push', 'pop' or 'replace'. */
export function pageChange(oldKeys, newKeys) {
  const isPrefix = (a, b) => a.length < b.length && a.every((k, i) => b[i] === k);
  if (isPrefix(oldKeys, newKeys)) return 'push';
  if (isPrefix(newKeys, oldKeys)) return 'pop';
  return 'replace';
}
