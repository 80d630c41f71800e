// The map of the app: every coordinator type of the catalog (GET /api/sessions/{id}/catalog) as a box of its routes
// (by presentation, with guards, tabs and events), edges to the coordinators routes open, the app's deep links, the
// visible path highlighted, and how often this session took each route. Drawn as SVG, no library.

const SVG = 'http://www.w3.org/2000/svg';
const BOX_WIDTH = 212;
const COLUMN_GAP = 72;
const HEADER = 30;
const ROW = 22;
const BOX_GAP = 26;
const PAD = 16;

/** The badge a route shows: how it opens. */
const HOW = { root: 'root', tab: 'tab', push: 'push', modal: 'sheet', fullScreen: 'cover' };

function svg(name, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

/** How a route opens: `root`, `tab`, or its presentation. */
export function howItOpens(route) {
  return route.kind === 'route' ? route.presentation || 'push' : route.kind;
}

/** The catalog's root coordinator type: the first that no route opens (or the first). */
export function rootType(catalog) {
  const opened = new Set();
  for (const c of catalog.coordinators || []) {
    for (const r of c.routes || []) if (r.outputKind === 'coordinator' && r.output !== c.type) opened.add(r.output);
  }
  return (catalog.coordinators || []).find((c) => !opened.has(c.type))?.type ?? catalog.coordinators?.[0]?.type;
}

/**
 * A visible path (route names from the root) as `[{type, route}]`: each route is looked up in the innermost
 * coordinator open on the path that has it (a pushed screen belongs to the coordinator whose stack holds it).
 */
export function resolvePath(catalog, path) {
  const types = new Map((catalog.coordinators || []).map((c) => [c.type, c]));
  const open = [rootType(catalog)];
  const result = [];
  for (const name of path || []) {
    let depth = open.length - 1;
    while (depth >= 0 && !types.get(open[depth])?.routes?.some((r) => r.name === name)) depth--;
    if (depth < 0) break; // a route the catalog does not know (another app version): stop here
    open.length = depth + 1;
    const type = open[depth];
    const route = types.get(type).routes.find((r) => r.name === name);
    result.push({ type, route: name });
    if (route.outputKind === 'coordinator') open.push(route.output);
  }
  return result;
}

/** Counts, per `type/route`, how often a session's changes opened it: routes new on the path after each change. */
export class RouteCounter {
  constructor() {
    this.counts = new Map();
    this.lastVersion = null; // the version of the last entry counted
    this.lastPath = [];
  }

  /**
   * Adds the history entries (oldest first) after those counted: `'counted'`, `'same'` (nothing new), or `'gap'` when
   * entries between are missing (nothing is counted then: read the history after `lastVersion` first). The first
   * batch (`start`) may begin anywhere: where the store's retention begins.
   */
  add(catalog, entries, { start = false } = {}) {
    const fresh = entries.filter((e) => this.lastVersion === null || e.version > this.lastVersion);
    if (!fresh.length) return 'same';
    if (this.lastVersion === null ? !start : fresh[0].version !== this.lastVersion + 1) return 'gap';
    for (const entry of fresh) {
      const path = resolvePath(catalog, entry.visiblePath || []);
      let same = 0;
      while (same < path.length && same < this.lastPath.length
        && path[same].type === this.lastPath[same].type && path[same].route === this.lastPath[same].route) same++;
      for (const step of path.slice(same)) {
        const key = `${step.type}/${step.route}`;
        this.counts.set(key, (this.counts.get(key) || 0) + 1);
      }
      this.lastPath = path;
      this.lastVersion = entry.version;
    }
    return 'counted';
  }

  count(type, route) { return this.counts.get(`${type}/${route}`) || 0; }
}

/** A box wide enough for its title and kind, its routes with their badges, and its events (text widths estimated). */
function boxWidth(c) {
  const chars = (text) => [...String(text || '')].length;
  const title = chars(c.type) * 7.8 + chars(c.kind) * 6.4 + 40;
  const rows = (c.routes || []).map((r) => (chars(r.name) + (r.input ? 3 : 0) + (r.guarded ? 3 : 0)) * 7.7 + 84);
  const events = (c.events || []).map((e) => (chars(e.name) + 2) * 7.1 + 28);
  return Math.ceil(Math.max(BOX_WIDTH, title, ...rows, ...events));
}

/** Lays the coordinator types out in columns by how many routes away from the root they are. */
function layout(catalog) {
  const types = new Map((catalog.coordinators || []).map((c) => [c.type, c]));
  const root = rootType(catalog);
  const column = new Map(root ? [[root, 0]] : []);
  const order = root ? [root] : [];
  for (let i = 0; i < order.length; i++) {
    for (const r of types.get(order[i])?.routes || []) {
      if (r.outputKind === 'coordinator' && types.has(r.output) && !column.has(r.output)) {
        column.set(r.output, column.get(order[i]) + 1);
        order.push(r.output);
      }
    }
  }
  for (const type of types.keys()) {
    if (!column.has(type)) { column.set(type, 0); order.push(type); } // opened by nothing reachable: beside the root
  }
  const widths = [];
  for (const type of order) {
    const col = column.get(type);
    widths[col] = Math.max(widths[col] || 0, boxWidth(types.get(type)));
  }
  const lefts = [];
  widths.forEach((w, col) => { lefts[col] = col === 0 ? PAD : lefts[col - 1] + widths[col - 1] + COLUMN_GAP; });
  const boxes = new Map();
  const bottom = [];
  for (const type of order) {
    const c = types.get(type);
    const col = column.get(type);
    const height = HEADER + (c.routes || []).length * ROW + ((c.events || []).length ? 8 + c.events.length * 18 : 0) + 8;
    const y = bottom[col] ?? PAD;
    boxes.set(type, { type, coordinator: c, x: lefts[col], y, width: widths[col], height });
    bottom[col] = y + height + BOX_GAP;
  }
  const last = widths.length - 1;
  const width = last < 0 ? PAD * 2 + BOX_WIDTH : lefts[last] + widths[last] + PAD + 48;
  const below = Math.max(PAD, ...bottom.filter((b) => b !== undefined));
  const links = catalog.deepLinks || [];
  const linksBox = links.length
    ? { x: PAD, y: below, width: Math.max(BOX_WIDTH, width - PAD * 2 - 48), height: HEADER + links.length * 18 + 10 }
    : null;
  const height = (linksBox ? linksBox.y + linksBox.height : below) + PAD;
  return { boxes, linksBox, width, height };
}

/** Draws the map of a catalog into a container and keeps it current (the visible path, the counts). */
export class AppMap {
  /** handlers: { onRoute({type, route}) } — a route clicked (or Enter / Space on it). */
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.catalog = null;
    this.onPath = new Set();
    this.counter = new RouteCounter();
    this.arrowId = `map-arrow-${container.id}`; // one per map on the page: ids must not repeat
  }

  /** Draws `catalog` (a new one replaces the old and its counts). */
  show(catalog) {
    if (this.catalog !== catalog) this.counter = new RouteCounter();
    this.catalog = catalog;
    this.draw();
  }

  /**
   * Scrolls a map larger than its box to its start: the root coordinator in view (scrolled to the screen on view, it
   * once opened with the root cut off), and as far toward the screen on view (the deepest route highlighted) as the
   * root allows. Only the map's own box scrolls.
   */
  revealPath() {
    const box = this.container;
    const root = this.parts?.boxes.get(rootType(this.catalog));
    if (!root) return;
    const routes = box.querySelectorAll('.map-route.on-path');
    const screen = routes[routes.length - 1];
    const frame = box.getBoundingClientRect();
    // The scroll position on one axis: the screen on view at the far edge (if it is beyond it), kept within the
    // positions that show the whole root (its start, when the root is larger than the box).
    const scroll = ([start, end], offset, border, size) => {
      const at = (element) => {
        const r = element.getBoundingClientRect();
        return [r[start] - frame[start] - border + offset, r[end] - frame[start] - border + offset];
      };
      const [rootStart, rootEnd] = at(root);
      const highest = Math.max(0, rootStart - PAD);
      const lowest = Math.min(highest, Math.max(0, rootEnd + PAD - size));
      const wanted = screen ? at(screen)[1] + PAD - size : 0;
      return Math.min(highest, Math.max(lowest, wanted));
    };
    box.scrollLeft = scroll(['left', 'right'], box.scrollLeft, box.clientLeft, box.clientWidth);
    box.scrollTop = scroll(['top', 'bottom'], box.scrollTop, box.clientTop, box.clientHeight);
  }

  /** Forgets the counts and the highlight (another session is shown). */
  reset() {
    this.catalog = null;
    this.counter = new RouteCounter();
    this.onPath = new Set();
    this.container.replaceChildren();
  }

  /** Highlights the routes of `path` (the live visible path). */
  highlight(path) {
    if (!this.catalog) return;
    const onPath = new Set(resolvePath(this.catalog, path).map((s) => `${s.type}/${s.route}`));
    if (onPath.size === this.onPath.size && [...onPath].every((key) => this.onPath.has(key))) return;
    this.onPath = onPath;
    this.update();
  }

  /** Counts the history `entries` (oldest first) not counted yet; see ``RouteCounter/add``. */
  count(entries, options) {
    if (!this.catalog) return 'gap';
    const outcome = this.counter.add(this.catalog, entries, options);
    if (outcome === 'counted') this.update();
    return outcome;
  }

  /**
   * Brings the drawn map up to date with the highlight and the counts, in place: the elements stay, so the focus,
   * the scroll and a pointer on a route are kept (the whole map is drawn only when the catalog changes).
   */
  update() {
    if (!this.parts || this.parts.catalog !== this.catalog) { this.draw(); return; }
    const typesOnPath = new Set([...this.onPath].map((key) => key.split('/')[0]));
    for (const [type, group] of this.parts.boxes) group.classList.toggle('on-path', typesOnPath.has(type));
    for (const { key, path } of this.parts.edges) path.classList.toggle('on-path', this.onPath.has(key));
    for (const part of this.parts.routes) this.decorateRoute(part);
    this.overlay?.(this.parts); // a layer over the map (heat.js), when one is set
  }

  draw() {
    const catalog = this.catalog;
    if (!catalog) return;
    this.parts = { catalog, boxes: new Map(), routes: [], edges: [] };
    const { boxes, linksBox, width, height } = layout(catalog);
    const root = svg('svg', {
      class: 'app-map', viewBox: `0 0 ${width} ${height}`, width, height, role: 'group',
      'aria-label': `Map of the app ${catalog.app || ''}: ${boxes.size} coordinators`, 'data-testid': 'app-map',
    });
    root.append(svg('defs', {},
      // Sized in the map's units, not the edge's width: an edge drawn thick (heat.js) keeps the same arrowhead.
      svg('marker', { id: this.arrowId, viewBox: '0 0 8 8', refX: 7, refY: 4, markerWidth: 10, markerHeight: 10, markerUnits: 'userSpaceOnUse', orient: 'auto' },
        svg('path', { d: 'M0,0 L8,4 L0,8 z', class: 'map-arrowhead' }))));
    const edges = svg('g', { class: 'map-edges' });
    const nodes = svg('g', { class: 'map-nodes' });
    root.append(edges, nodes);
    for (const box of boxes.values()) {
      nodes.append(this.boxElement(box));
      (box.coordinator.routes || []).forEach((route, index) => {
        const target = route.outputKind === 'coordinator' ? boxes.get(route.output) : null;
        if (target) edges.append(this.edge(box, index, target, route));
      });
    }
    if (linksBox) nodes.append(this.linksElement(linksBox, catalog.deepLinks));
    // The route that has the keyboard's focus keeps it across the redraw.
    const focused = this.container.contains(document.activeElement) ? document.activeElement.dataset : null;
    this.container.replaceChildren(root);
    this.update();
    if (focused?.route) {
      const selector = `.map-route[data-type="${CSS.escape(focused.type)}"][data-route="${CSS.escape(focused.route)}"]`;
      this.container.querySelector(selector)?.focus();
    }
  }

  boxElement(box) {
    const { type, coordinator: c, x, y, width, height } = box;
    const group = svg('g', { class: 'map-box', 'data-type': type });
    this.parts.boxes.set(type, group);
    group.append(svg('rect', { x, y, width, height, rx: 10, class: 'map-box-frame' }));
    group.append(svg('text', { x: x + 12, y: y + 20, class: 'map-box-title' }, document.createTextNode(type)));
    group.append(svg('text', { x: x + width - 12, y: y + 20, class: 'map-box-kind', 'text-anchor': 'end' },
      document.createTextNode(c.kind || '')));
    (c.routes || []).forEach((route, index) => {
      group.append(this.routeElement(type, route, x, y + HEADER + index * ROW, width));
    });
    const events = c.events || [];
    events.forEach((event, index) => {
      const ey = y + HEADER + (c.routes || []).length * ROW + 8 + index * 18 + 12;
      const text = svg('text', { x: x + 12, y: ey, class: 'map-event' }, document.createTextNode(`⚡ ${event.name}`));
      if (event.summary) text.append(svg('title', {}, document.createTextNode(event.summary)));
      group.append(text);
    });
    return group;
  }

  routeElement(type, route, x, y, width) {
    const how = howItOpens(route);
    const row = svg('g', {
      class: `map-route how-${how}`, role: 'button', tabindex: 0,
      'data-testid': 'map-route', 'data-route': route.name, 'data-type': type,
    });
    row.append(svg('rect', { x: x + 4, y, width: width - 8, height: ROW - 2, rx: 6, class: 'map-route-bg' }));
    const name = `${route.name}${route.input ? '(…)' : ''}`;
    if (route.guarded) {
      // A padlock drawn, not a glyph: fonts without emoji would show a box.
      row.append(svg('g', { class: 'map-guard', 'data-testid': 'map-guard', transform: `translate(${x + 11},${y + 4})` },
        svg('rect', { x: 0, y: 5.5, width: 9, height: 7, rx: 1.5 }),
        svg('path', { d: 'M2,5.5 v-2 a2.5,2.5 0 0 1 5,0 v2', fill: 'none' })));
    }
    row.append(svg('text', { x: x + (route.guarded ? 26 : 12), y: y + 14, class: 'map-route-name' },
      document.createTextNode(name)));
    const howText = svg('text', { x: x + width - 12, y: y + 14, class: 'map-route-how', 'text-anchor': 'end' });
    const title = svg('title');
    row.append(howText, title);
    this.parts.routes.push({ type, route, how, row, howText, title });
    const activate = () => this.handlers.onRoute({ type, route });
    row.addEventListener('click', activate);
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); activate(); }
    });
    return row;
  }

  /** The parts of a route's row that change: its highlight, its count and the label that reads them out. */
  decorateRoute({ type, route, how, row, howText, title }) {
    const taken = this.counter.count(type, route.name);
    const onPath = this.onPath.has(`${type}/${route.name}`);
    const label = [`${route.name} (${HOW[how] || how}) in ${type}`, route.guarded ? 'guarded' : null,
      route.input ? `takes ${route.inputType || 'an input'}` : null,
      route.outputKind === 'coordinator' ? `opens ${route.output}` : null,
      `taken ${taken} time${taken === 1 ? '' : 's'}`, onPath ? 'on screen now' : null].filter(Boolean).join(', ');
    row.classList.toggle('on-path', onPath);
    row.setAttribute('aria-label', `Preview ${label}`);
    row.setAttribute('data-taken', taken);
    howText.textContent = `${taken ? `×${taken} ` : ''}${HOW[how] || how}`;
    title.textContent = label;
  }

  edge(box, index, target, route) {
    const sx = box.x + box.width;
    const sy = box.y + HEADER + index * ROW + ROW / 2 - 1;
    const how = howItOpens(route);
    let d;
    if (target.x > box.x) {
      const tx = target.x;
      const ty = target.y + HEADER / 2;
      const bend = Math.max(24, (tx - sx) / 2);
      d = `M${sx},${sy} C${sx + bend},${sy} ${tx - bend},${ty} ${tx - 2},${ty}`;
    } else {
      // Back to a coordinator as far from the root or nearer (a flow that opens itself again): around the right.
      const tx = target.x + target.width;
      const ty = target.y + 10;
      d = `M${sx},${sy} C${sx + 46},${sy} ${tx + 46},${ty} ${tx + 2},${ty}`;
    }
    const path = svg('path', { d, class: `map-edge how-${how}`, 'marker-end': `url(#${this.arrowId})` });
    this.parts.edges.push({ key: `${box.type}/${route.name}`, path });
    return path;
  }

  linksElement(box, links) {
    const group = svg('g', { class: 'map-links', 'data-testid': 'map-deeplinks' });
    group.append(svg('rect', { x: box.x, y: box.y, width: box.width, height: box.height, rx: 10, class: 'map-links-frame' }));
    group.append(svg('text', { x: box.x + 12, y: box.y + 20, class: 'map-box-title' }, document.createTextNode('Deep links')));
    links.forEach((link, index) => {
      group.append(svg('text', { x: box.x + 12, y: box.y + HEADER + index * 18 + 8, class: 'map-link' },
        document.createTextNode(`↗ ${link}`)));
    });
    return group;
  }
}
