// Wires the page together: session from the URL, the live stream, posting controls, browser history.
import { Switchyard, ClientProblem, memoryStorage, newId, webStorage } from './switchyard-client.js';
import { buildView } from './layout.js';
import { Phone } from './render.js';
import { Inspector } from './inspector.js';
import { AppMap, howItOpens } from './map.js';
import { HeatLayer } from './heat.js';
import { el } from './screen.js';
import { showProblem } from './toast.js';

const state = {
  id: null, doc: null, view: null, follower: null, queue: null, historyTimer: null,
  traversing: false, depth: 0,
  goingBack: false, // Back (or a jump back several entries) is being answered, one step at a time
  pendingBacks: 0, // the steps back still to take
  curlVersion: -1, // the version the curl box shows the request of (newer changes from elsewhere replace it)
  viewing: null, // an earlier version or a preview shown instead of the live state: { doc, onApply }
  refetches: 0, // patches that did not fit the state shown (a missed version): the state was fetched whole instead
  counting: null, // the session whose history the map is counting
  link: null, // the app's deep link to what is shown (reverse routing): { version, link }
  linkTimer: null,
};

// The page is a client of the API like any app: the same module (switchyard-client.js) an app imports.
const client = new Switchyard();
const sessionPath = (id) => client.sessionPath(id);

/** The shell command equivalent to a POST of `body` to `path` on this origin. */
function curlFor(path, body) {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  return `curl -sS -X POST ${location.origin}${path} -H 'Content-Type: application/json' -d '${json}'`;
}

const phone = new Phone(document.getElementById('phone'), {
  onAction: perform,
  onBack: () => send('transitions', { action: 'back' }),
  onDismiss: () => send('transitions', { action: 'dismissModal' }),
  onClose: (layer) => send('transitions', { coordinator: layer.owner.id, steps: [{ action: 'popItem', item: layer.item.id }] }),
  onSelectTab: (node, tab) => send('transitions', { action: 'selectTab', route: tab.route }),
  onAlert: respondToAlert,
});
const inspector = new Inspector(document.getElementById('inspector'), {
  onDeepLink: (url) => send('deeplinks', { url }),
  onPreviewDeepLink: previewDeepLink,
  onViewVersion: viewVersion,
  onNewSession: () => startNewSession(),
  onLoadPatch: async (version) => (await client.versionPatch(state.id, version)).patch || [],
});
const mapHandlers = { onRoute: (picked) => pickRoute(picked) };
const map = new AppMap(document.getElementById('map'), mapHandlers);
const largeMap = new AppMap(document.getElementById('map-large'), mapHandlers);
const mapDialog = document.getElementById('map-dialog');
const byId = (id) => document.getElementById(id);
new HeatLayer([map, largeMap], client, {
  element: byId('map-heat-form'), token: byId('heat-token'), since: byId('heat-since'), until: byId('heat-until'),
  steps: byId('heat-steps'), clear: byId('heat-clear'), status: byId('heat-status'),
});
document.getElementById('map-expand').addEventListener('click', () => {
  if (!map.catalog) return;
  largeMap.show(map.catalog);
  largeMap.counter = map.counter;
  largeMap.onPath = map.onPath;
  largeMap.update();
  mapDialog.showModal();
  largeMap.revealPath(); // larger than the window: the root in view, and the way toward the screen on view
});
document.getElementById('map-dialog-close').addEventListener('click', () => mapDialog.close());
const message = document.getElementById('phone-message');
const banner = document.getElementById('viewing');
document.getElementById('viewing-close').addEventListener('click', () => closeViewing());
document.getElementById('viewing-apply').addEventListener('click', () => {
  const onApply = state.viewing?.onApply;
  closeViewing();
  onApply?.();
});

// ---- state documents -------------------------------------------------------------------------

/** Renders a state document unless it is older than (or as old as) the one shown. */
function apply(doc) {
  if (!doc || typeof doc !== 'object' || !doc.tree) return;
  if (doc.session && doc.session !== state.id) return;
  if (state.doc && Number(doc.version) <= Number(state.doc.version)) return;
  const first = !state.doc;
  state.doc = doc;
  state.view = buildView(doc);
  message.hidden = true;
  if (state.viewing) {
    // An earlier version or a preview is on the phone: keep it there, note what is live now.
    document.getElementById('version').textContent = String(doc.version);
    scheduleHistoryRefresh();
    return;
  }
  const phoneEl = document.getElementById('phone');
  phoneEl.setAttribute('aria-busy', 'false');
  phoneEl.dataset.session = doc.session;
  phoneEl.dataset.version = String(doc.version);
  phoneEl.dataset.path = (doc.visible?.path || []).join('/');
  phone.render(state.view, { animate: !first });
  inspector.showSession(doc, state.view);
  showOnMap(doc.visible?.path);
  syncHistory();
  scheduleHistoryRefresh();
  scheduleLinkRefresh();
}

function report(err) {
  if (err instanceof ClientProblem) showProblem(err.problem);
  else showProblem({ title: 'Unexpected problem', detail: String(err?.message || err) });
}

/**
 * Sends a change to a session endpoint through the session's intent queue (in order, each with its own
 * Idempotency-Key, kept in the tab's sessionStorage until answered), shows the equivalent curl, renders the answer or
 * the problem.
 */
async function send(endpoint, body) {
  if (!state.id || !state.doc || !state.queue) return;
  const path = `${sessionPath(state.id)}/${endpoint}`;
  inspector.showRequest(curlFor(path, body));
  let delivery;
  try {
    delivery = await state.queue.send({ id: newId(), kind: endpoint, body });
  } catch {
    return; // the queue stopped (another session was opened) or its storage refused the change
  }
  if (delivery.applied) {
    state.curlVersion = Math.max(state.curlVersion, delivery.applied.version);
    apply(delivery.applied);
  } else if (delivery.refused) {
    const problem = delivery.refused;
    state.curlVersion = Math.max(state.curlVersion, state.doc?.version ?? -1);
    // A guard's redirect went through (to another screen): it reads as a move, not as a refusal.
    if (problem.kind === 'redirected') {
      showProblem({ ...problem.problem, title: 'Redirected by a route guard' }, { tone: 'info' });
    } else {
      report(problem);
    }
    // A stale version carries the session as it is; a guard's redirect is a new version, and the problem carries it.
    if (problem.state?.tree) apply(problem.state);
    scheduleHistoryRefresh(); // the refusal joins the session's recent refusals
  }
  syncHistory();
}

function perform(action, pageEl, toggle) {
  if (!action) return undefined;
  if (action.type === 'transition') {
    return send('transitions', { coordinator: action.coordinator, steps: action.steps || [] });
  }
  if (action.type === 'event') {
    const fields = {};
    for (const name of action.fields || []) {
      if (toggle && toggle.id === name) { fields[name] = toggle.value; continue; }
      const input = pageEl.querySelector(`[data-field="${CSS.escape(name)}"]`);
      if (input) fields[name] = input.type === 'checkbox' ? String(input.checked) : input.value;
    }
    return send('events', { from: action.from, name: action.name, payload: action.payload, fields });
  }
  if (action.type === 'deepLink') return send('deeplinks', { url: action.url });
  showProblem({ title: 'Unsupported control', detail: `This page cannot perform “${action.type}” actions.` });
  return undefined;
}

// ---- time travel and previews: shown on the phone, read-only, until applied or closed ----------

/** Shows `doc` (not the live state) on the phone with a banner: what it is, and a button that applies it. */
function showViewing(doc, text, applyText, onApply) {
  state.viewing = { doc, onApply };
  const view = buildView(doc);
  const phoneEl = document.getElementById('phone');
  phoneEl.inert = true;
  phoneEl.classList.add('is-viewing');
  phone.render(view, { animate: true });
  inspector.renderTree(doc, view);
  showOnMap(doc.visible?.path);
  document.getElementById('viewing-text').textContent = text;
  document.getElementById('viewing-apply').textContent = applyText;
  banner.hidden = false;
  document.getElementById('viewing-close').focus();
}

/** Back to the live state (with whatever changed meanwhile); `sync` lines the browser history up with it. */
function closeViewing({ sync = true } = {}) {
  if (!state.viewing) return;
  state.viewing = null;
  banner.hidden = true;
  const phoneEl = document.getElementById('phone');
  phoneEl.inert = false;
  phoneEl.classList.remove('is-viewing');
  if (state.doc) {
    phoneEl.dataset.version = String(state.doc.version);
    phoneEl.dataset.path = (state.doc.visible?.path || []).join('/');
    phone.render(state.view, { animate: true });
    inspector.showSession(state.doc, state.view);
    showOnMap(state.doc.visible?.path);
    if (sync) syncHistory();
  }
}

async function viewVersion(version) {
  if (!state.id || !state.doc) return;
  if (version === state.doc.version) { closeViewing(); return; }
  const id = state.id;
  try {
    const doc = await client.version(id, version);
    if (state.id !== id) return; // another session was opened meanwhile
    const live = state.doc.version;
    const path = (doc.visible?.path || []).join(' › ');
    // Restores only if the session is still at the version seen here (else 412 and the page catches up).
    showViewing(doc, `Version ${version} (live: ${live}) — ${path}`, 'Restore to here',
      () => send('restore', { version, expectedVersion: live }));
  } catch (err) {
    if (state.id === id) report(err);
  }
}

async function previewDeepLink(url) {
  if (!state.id || !state.doc) return;
  const id = state.id;
  const path = `${sessionPath(id)}/preview/deeplinks`;
  inspector.showRequest(curlFor(path, { url }));
  try {
    const preview = await client.request('POST', path, { url });
    if (state.id !== id) return; // another session was opened meanwhile
    const changes = preview.patch?.length ?? 0;
    const outcome = preview.result?.deepLink === 'pending' ? 'it would wait (pending)' : 'it would open';
    // Opens it only if the session is still where the preview started from (else 412 and the page catches up).
    showViewing(preview.state, `Preview of ${url}: ${outcome}, ${changes} change${changes === 1 ? '' : 's'}`,
      'Open it', () => send('deeplinks', { url, expectedVersion: preview.version }));
  } catch (err) {
    if (state.id === id) report(err);
  }
}

function respondToAlert(nodeId, choice) {
  return send('transitions', { coordinator: nodeId, steps: [{ action: 'respondToAlert', choice }] });
}

// ---- sessions --------------------------------------------------------------------------------

function adopt(id) {
  closeViewing();
  disconnect();
  state.id = id;
  state.doc = null;
  state.view = null;
  state.curlVersion = -1;
  state.link = null;
  map.reset();
  largeMap.reset();
  inspector.clearRequest();
  phone.clear();
  inspector.resetTimeline();
}

/** Starts a new session; `link` (from a shared address whose session is gone) is opened in it. */
async function startNewSession({ link } = {}) {
  try {
    const doc = await client.createSession();
    adopt(doc.session);
    history.replaceState({ sy: doc.session, depth: 0 }, '', addressOf(doc, null));
    state.depth = 0;
    apply(doc);
    connect();
    showDeepLinkExamplesOf(doc.session);
    if (link) openAddressLink(link);
  } catch (err) {
    report(err);
    showMessage('Cannot start a session', 'The server did not create a session. Is it running?', 'Try again');
  }
}

/**
 * Opens session `id` as the address names it: `path` (the visible routes the address was made for) and `link` (the
 * app's deep link for that screen). The session is the truth: a link it does not show yet is opened in it; a path it
 * has moved on from is said, and the address follows the session.
 */
async function openSession(id, { path = [], link = null } = {}) {
  adopt(id);
  state.depth = history.state?.sy === id ? history.state.depth || 0 : 0;
  let doc;
  try {
    doc = await client.getSession(id);
  } catch (err) {
    if (err instanceof ClientProblem && err.status === 404) {
      if (link) startNewSession({ link }); // a shared link outlives its session: it opens in a new one
      else showNotFound(id);
    } else {
      report(err);
      showMessage('Cannot load this session', 'The server did not answer. Is it running?', 'Start a new session');
    }
    return;
  }
  apply(doc);
  connect();
  showDeepLinkExamplesOf(id);
  const shown = (doc.visible?.path || []).join('/');
  if (link) {
    // Opened only when the server says the session shows another screen (not when it could not say).
    const current = await client.visibleLink(id).catch(() => null);
    if (state.id === id && current && current.link !== link) openAddressLink(link);
  } else if (path.length && path.join('/') !== shown) {
    showProblem({ title: 'The session has moved on', detail: `The address was made for ${path.join(' › ')}; `
      + `the session shows ${(doc.visible?.path || []).join(' › ')} now.` }, { tone: 'info' });
  }
}

/** Opens the deep link an address carries, and says so (it may wait for a login: the app decides). */
function openAddressLink(link) {
  showProblem({ title: 'Opening the link in the address', detail: link }, { tone: 'info', timeout: 3000 });
  send('deeplinks', { url: link });
}

/** The deep-link examples of the session's own app (its patterns with sample values), whichever apps are served. */
function showDeepLinkExamplesOf(id) {
  client.sessionCatalog(id).then(async (catalog) => {
    if (state.id !== id) return;
    inspector.showDeepLinkExamples(catalog.deepLinkExamples || []);
    map.show(catalog);
    showOnMap(state.doc?.visible?.path);
    await countWholeHistory(id);
  }, () => {});
}

// ---- the map of the app: the catalog drawn, the screen shown highlighted, each route's count, routes previewed ----

function showOnMap(path) {
  for (const m of [map, largeMap]) m.highlight(path || []);
}

/** Counts the session's history on the map page by page, after what it counted (all of it the first time). */
async function countWholeHistory(id) {
  if (state.counting === id) return;
  state.counting = id;
  try {
    for (;;) {
      const after = map.counter.lastVersion ?? 0; // version 0 (the creation) has no entry
      const page = await client.history(id, { after, limit: 1000 }).catch(() => null);
      if (!page || state.id !== id) return;
      const entries = page.entries || [];
      map.count(entries, { start: map.counter.lastVersion === null });
      if (entries.length < 1000) break;
    }
  } finally {
    if (state.counting === id) state.counting = null;
  }
  if (mapDialog.open) largeMap.update();
}

/** The step that opens a route of the map in its coordinator: a root, a tab, or a route as it is presented. */
function stepFor(route, input) {
  const how = howItOpens(route);
  const withInput = input === undefined ? {} : { input };
  if (how === 'root') return { action: 'root', route: route.name, ...withInput };
  if (how === 'tab') return { action: 'focus', route: route.name };
  return { action: 'route', route: route.name, ...withInput };
}

/** An input typed for a route: JSON when it parses as JSON of the route's type, else the text as a string. */
function parseInput(text, route) {
  if (route.input?.type === 'string') return text;
  try { return JSON.parse(text); } catch { return text; }
}

const mapInput = document.getElementById('map-input');
let inputFor = null;
mapInput.addEventListener('submit', (e) => {
  e.preventDefault();
  if (!inputFor) return;
  const value = document.getElementById('map-input-value').value;
  mapInput.hidden = true;
  previewRoute(inputFor, parseInput(value, inputFor.route));
});
document.getElementById('map-input-cancel').addEventListener('click', () => { mapInput.hidden = true; });

/** A route picked on the map: previewed at once, or after its input is typed. */
function pickRoute(picked) {
  if (mapDialog.open) mapDialog.close();
  if (picked.route.input && howItOpens(picked.route) !== 'tab') {
    inputFor = picked;
    document.getElementById('map-input-label').textContent =
      `${picked.route.name} takes ${picked.route.inputType || 'an input'}:`;
    mapInput.hidden = false;
    document.getElementById('map-input-value').focus();
    return;
  }
  previewRoute(picked, undefined);
}

/**
 * The transition that opens `step` in a coordinator of `type` where a user would see it: the one on screen, or one
 * in a tab not selected, through the tab bar first (focus the tab, then the step in it). A type not in the tree is
 * named as is: the server says why it cannot.
 */
function transitionTo(type, step) {
  const found = [];
  (function walk(node, hop) {
    if (!node) return;
    if (node.type === type) found.push({ node, hop });
    for (const entry of [...(node.root ? [node.root] : []), ...(node.tabs || []), ...(node.stack || [])]) {
      if (entry.coordinator) walk(entry.coordinator, { node, entry });
    }
  })(state.doc.tree, null);
  const shown = found.find((f) => state.view.nodes.has(f.node.id));
  if (shown) return { coordinator: shown.node.id, steps: [step] };
  const behindTab = found.find((f) => f.hop?.node.kind === 'tab' && state.view.nodes.has(f.hop.node.id));
  if (behindTab) {
    return { coordinator: behindTab.hop.node.id, steps: [{ action: 'focus', route: behindTab.hop.entry.route }, step] };
  }
  return { coordinator: type, steps: [step] };
}

/** Previews opening a route of the map (POST …/preview/transitions) and offers to open it. */
async function previewRoute({ type, route }, input) {
  if (!state.id || !state.doc) return;
  const id = state.id;
  const body = transitionTo(type, stepFor(route, input));
  const path = `${sessionPath(id)}/preview/transitions`;
  inspector.showRequest(curlFor(path, body));
  try {
    const preview = await client.request('POST', path, body);
    if (state.id !== id) return;
    const changes = preview.patch?.length ?? 0;
    showViewing(preview.state, `Preview of ${route.name} in ${type}: ${changes} change${changes === 1 ? '' : 's'}`,
      'Open it', () => send('transitions', { ...body, expectedVersion: preview.version }));
  } catch (err) {
    if (state.id === id) report(err);
  }
}

function showNotFound(id) {
  adopt(id);
  showMessage('Session not found', `There is no session “${id}”. It may have expired or been deleted (a server that keeps sessions only in memory also loses them when it restarts).`,
    'Start a new session');
}

function showMessage(title, detail, buttonText) {
  phone.clear();
  const button = el('button', { type: 'button', class: 'sbtn sbtn-primary', text: buttonText, 'data-testid': 'new-session' });
  button.addEventListener('click', () => startNewSession());
  message.replaceChildren(el('div', { class: 'message-card', 'data-testid': 'not-found' },
    el('div', { class: 'message-icon', 'aria-hidden': 'true', text: '?' }),
    el('h2', { text: title }), el('p', { text: detail }), button));
  message.hidden = false;
  document.getElementById('phone').setAttribute('aria-busy', 'false');
}

// ---- live stream: the client's follower (Last-Event-ID on reconnect, the whole state after a gap) -----------

function disconnect() {
  state.follower?.stop();
  state.follower = null;
  state.queue?.stop();
  state.queue = null;
  inspector.setLive('off');
}

const LIVE = { connecting: 'connecting', live: 'on', reconnecting: 'connecting', failed: 'off' };

/** The tab's sessionStorage under `key`, or memory where the browser refuses storage. */
function tabStorage(key) {
  try {
    sessionStorage.getItem(key);
    return webStorage(sessionStorage, key);
  } catch {
    return memoryStorage();
  }
}

function connect() {
  disconnect();
  const id = state.id;
  state.queue = client.intents(id, {
    // This tab's changes not yet answered outlive a reload of the tab (not other tabs: each keeps its own).
    storage: tabStorage(`switchyard.intents.${id}`),
    // Changes kept from before a reload (the server was away) are sent first; their answers are shown too.
    onDelivery: (delivery) => { if (state.id === id && delivery.applied) apply(delivery.applied); },
    onRetry: ({ attempt, problem }) => {
      if (attempt === 1 && state.id === id) {
        const why = problem?.status ? `${problem.title}: ${problem.detail}` : 'The server does not answer.';
        showProblem({ title: 'Waiting for the server', status: problem?.status || undefined, code: problem?.code,
          detail: `${why} Your change is kept and will be sent once it answers.` }, { timeout: 4000 });
      }
    },
  });
  state.follower = client.follow(id, {
    onState: (doc) => { if (state.id === id) apply(doc); },
    onConnection: (connection) => {
      if (state.id !== id) return;
      inspector.setLive(LIVE[connection.state]);
      if (connection.state === 'failed' && connection.problem.status === 404) showNotFound(id);
    },
    // A patch that did not fit the state held (a missed version): the follower reads the whole state again.
    onGap: () => {
      state.refetches += 1;
      document.getElementById('phone').dataset.refetches = String(state.refetches);
    },
  });
}

function scheduleHistoryRefresh() {
  clearTimeout(state.historyTimer);
  const id = state.id;
  state.historyTimer = setTimeout(async () => {
    try {
      const h = await client.history(id);
      if (state.id !== id) return;
      inspector.renderHistory(h?.entries || []);
      showLatestChange(h?.entries || []);
      const refused = await client.refusals(id).catch(() => null);
      if (refused && state.id === id) inspector.renderRefusals(refused.refusals);
      if (map.count(h?.entries || []) === 'gap' && map.catalog) countWholeHistory(id);
      if (mapDialog.open) largeMap.update();
    } catch {
      if (state.id === id) inspector.renderHistory(null);
    }
  }, 120);
}

const ENDPOINTS = { api: 'transitions', gesture: 'transitions', event: 'events', deeplink: 'deeplinks', restore: 'restore' };

/** The curl box shows the latest change whatever made it (this page, curl, another tab or node), from the history. */
function showLatestChange(entries) {
  const last = entries.at(-1);
  if (!last || last.version <= state.curlVersion) return;
  state.curlVersion = last.version;
  const endpoint = ENDPOINTS[last.source];
  const body = last.request;
  if (!endpoint || !body || typeof body !== 'object' || 'omitted' in body || 'pendingDeepLink' in body) return;
  inspector.showRequest(curlFor(`${sessionPath(state.id)}/${endpoint}`, body));
}

// ---- addresses: each state has its own, `/s/{id}/{visible path}` plus `?link=` the app's deep link for it ----

/** Keeps a link (and the colon and slashes of its scheme and path) readable in the address's query. */
const linkInQuery = (link) => encodeURIComponent(link).replace(/%3A/gi, ':').replace(/%2F/gi, '/');

/** The page's address of `doc`: the session, its visible path, and `link` (the app's deep link to it) if any. */
function addressOf(doc, link) {
  const path = (doc.visible?.path || []).map(encodeURIComponent).join('/');
  return `/s/${encodeURIComponent(doc.session)}/${path}${link ? `?link=${linkInQuery(link)}` : ''}`;
}

/** What an address names: `{ id, path, link }`, or null for one that names no session. */
function parseAddress(where) {
  const match = /^\/s\/([^/]+)(?:\/(.*))?$/.exec(where.pathname);
  if (!match) return null;
  const decode = (part) => { try { return decodeURIComponent(part); } catch { return part; } }; // a stray '%'
  const path = (match[2] || '').split('/').filter(Boolean).map(decode);
  return { id: decode(match[1]), path, link: new URLSearchParams(where.search).get('link') };
}

/** Asks the server for the app's deep link to the live state (reverse routing), once changes settle. */
function scheduleLinkRefresh() {
  clearTimeout(state.linkTimer);
  const id = state.id;
  state.linkTimer = setTimeout(async () => {
    try {
      const found = await client.visibleLink(id);
      if (state.id !== id || found.version !== state.doc?.version) return; // stale: a newer one is on its way
      state.link = { version: found.version, link: found.link };
      syncHistory();
    } catch {
      // The address keeps the visible path: it is still this state's.
    }
  }, 150);
}

/** The live state's address, with the app's link once the server named it for this version. */
function liveAddress() {
  const link = state.link?.version === state.doc.version ? state.link.link : null;
  return addressOf(state.doc, link);
}

// ---- browser history: one entry per screen to go back from (a pushed page, a sheet or cover) ---------------

/** How many times Back can go back in `view`: its pushed pages and its sheets and covers. */
const backDepth = (view) => view.pushDepth + view.layers.length - 1;

function syncHistory() {
  if (!state.view || state.traversing || state.goingBack) return;
  const want = backDepth(state.view);
  if (want > state.depth) {
    for (let d = state.depth + 1; d <= want; d++) history.pushState({ sy: state.id, depth: d }, '', liveAddress());
  } else if (want < state.depth) {
    state.traversing = true; // our own traversal: its popstate must not post `back`
    history.go(want - state.depth);
    state.depth = want;
    return; // the address follows once the traversal lands (popstate)
  }
  state.depth = want;
  history.replaceState({ sy: state.id, depth: want }, '', liveAddress());
}

/**
 * Goes back once as iOS would on the screen shown: a sheet or cover whose own first page is on top closes (a sheet
 * as swiping it down would, a cover by its close button); otherwise the top pushed page pops.
 */
function goBack() {
  const top = state.view.layers.at(-1);
  if (top.presentation !== 'base' && top.pages.length <= 1) {
    if (top.presentation === 'modal') return send('transitions', { action: 'dismissModal' });
    if (top.item.dismissible === false) {
      // A cover the app keeps until it is answered: Back does not close it (its own buttons do).
      showProblem({ title: 'This screen stays until it is answered',
        detail: `“${top.item.route}” cannot be closed by going back: use its own buttons.` }, { tone: 'info' });
      return Promise.resolve();
    }
    return send('transitions', { coordinator: top.owner.id, steps: [{ action: 'popItem', item: top.item.id }] });
  }
  return send('transitions', { action: 'back' });
}

/**
 * Goes back `count` more times (Back pressed again while the last is answered adds to the count): one step at a
 * time, each from the state the previous one left; a refusal stops them all and says why.
 */
async function goBackTimes(count) {
  state.pendingBacks += count;
  if (state.goingBack) return; // the running walk takes these too
  state.goingBack = true; // the entries are already gone: each answer must not push them again
  try {
    while (state.pendingBacks > 0 && state.doc) {
      state.pendingBacks -= 1;
      const before = state.doc.version;
      await goBack();
      if (state.doc.version === before) break;
    }
  } finally {
    state.pendingBacks = 0;
    state.goingBack = false;
  }
  syncHistory();
}

addEventListener('popstate', (e) => {
  const entry = e.state;
  if (entry?.sy && entry.sy !== state.id) { location.reload(); return; }
  const depth = entry?.depth || 0;
  if (state.viewing) {
    // Back (or forward) while an earlier version or a preview is shown leaves it; the live session is untouched.
    closeViewing({ sync: false });
    if (depth !== state.depth) {
      state.traversing = true; // back to the entry we were on; that popstate lines the history up
      history.go(state.depth - depth);
    } else {
      syncHistory();
    }
    return;
  }
  if (state.traversing) {
    state.traversing = false;
    state.depth = depth;
    syncHistory();
    return;
  }
  const shown = state.depth;
  state.depth = depth;
  if (depth < shown && state.doc) {
    goBackTimes(shown - depth);
  } else if (depth > shown) {
    state.traversing = true; // forward cannot redo a push: return to the entry we were on
    history.go(shown - depth);
  }
});

// ---- keyboard --------------------------------------------------------------------------------

document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented || !state.view) return;
  if (state.viewing) { e.preventDefault(); closeViewing(); return; }
  if (e.target instanceof Element && e.target.closest('#inspector')) return;
  const alert = state.view.alert;
  if (alert) {
    const cancel = (alert.alert.actions || []).findIndex((a) => a.role === 'cancel');
    if (cancel >= 0) { e.preventDefault(); respondToAlert(alert.node.id, cancel); }
    return;
  }
  if (state.view.layers.length > 1) {
    e.preventDefault();
    send('transitions', { action: 'dismissModal' });
  }
});

// ---- start -----------------------------------------------------------------------------------


const address = parseAddress(location);
if (address) openSession(address.id, address);
else startNewSession();
