// Switchyard's JavaScript client: one ES module, no build step, for browsers and Node 20 alike (it needs only
// `fetch`, streams and `TextDecoder`). Types: switchyard-client.d.ts beside it. Guide: docs/clients.md.
//
//   import { Switchyard, intents, steps } from './switchyard-client.js';
//   const client = new Switchyard({ server: 'http://127.0.0.1:8080' });
//   const { session } = await client.createSession();
//   const follower = client.follow(session, { onState: (doc) => console.log(doc.visible.path.join('/')) });
//   const queue = client.intents(session);
//   await queue.send(intents.transition([steps.selectTab('settings')]));

/**
 * A problem the server answered with (RFC 9457), or the server out of reach (`status` 0). `kind` says what it
 * means for the app: `redirected` (409: a guard moved the session; `state` is the new state, already applied),
 * `staleVersion` (412: nothing applied; `state` is the session now), `refused` (any other problem: nothing
 * applied) or `unreachable` (no answer).
 */
export class ClientProblem extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.name = 'ClientProblem';
    this.status = status;
    /** The whole problem document. */
    this.problem = problem;
    this.code = typeof problem.code === 'string' ? problem.code : null;
    this.title = problem.title || (status ? `HTTP ${status}` : 'Cannot reach the server');
    this.detail = problem.detail || '';
    const current = Number.isInteger(problem.currentVersion) ? problem.currentVersion : null;
    if (status === 409 && this.code === 'redirected' && current !== null) this.kind = 'redirected';
    else if (status === 412 && this.code === 'staleVersion' && current !== null) this.kind = 'staleVersion';
    else this.kind = status === 0 ? 'unreachable' : 'refused';
    this.currentVersion = current;
    this.state = isStateDocument(problem.state) ? problem.state : null;
  }
}

/** Whether `value` is a state document (it has `session`, `version` and `visible`). */
export function isStateDocument(value) {
  return value !== null && typeof value === 'object' && typeof value.session === 'string'
    && Number.isInteger(value.version) && value.visible !== null && typeof value.visible === 'object';
}

// ---- JSON Patch (RFC 6902), as the stream sends it ------------------------------------------------

function pointerTokens(pointer) {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`'${pointer}' is not a JSON Pointer`);
  return pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function sameJSON(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function holds(container, key) {
  return Array.isArray(container) ? /^\d+$/.test(key) && Number(key) < container.length
    : Object.prototype.hasOwnProperty.call(container, key);
}

/**
 * `doc` with `patch` applied (`test`, `add`, `remove`, `replace`); `doc` itself is not changed. Throws when an
 * operation does not fit: a failed `test` among them, which means the patch was made for another version.
 */
export function applyPatch(doc, patch) {
  if (!Array.isArray(patch)) throw new Error('a patch is an array');
  let result = structuredClone(doc);
  for (const { op, path, value } of patch) {
    const keys = pointerTokens(path);
    if (keys.length === 0) {
      if (op === 'test') { if (!sameJSON(result, value)) throw new Error('test failed'); continue; }
      if (op === 'add' || op === 'replace') { result = structuredClone(value); continue; }
      throw new Error(`cannot ${op} the whole document`);
    }
    let parent = result;
    for (const key of keys.slice(0, -1)) {
      if (parent === null || typeof parent !== 'object' || !holds(parent, key)) throw new Error(`${path}: no ${key}`);
      parent = parent[key];
    }
    if (parent === null || typeof parent !== 'object') throw new Error(`${path}: the parent is not a container`);
    const last = keys.at(-1);
    const list = Array.isArray(parent);
    switch (op) {
      case 'test':
        if (!holds(parent, last) || !sameJSON(parent[last], value)) throw new Error(`test ${path} failed`);
        break;
      case 'add':
        if (list) {
          const index = last === '-' ? parent.length : Number(last);
          if (!(index >= 0 && index <= parent.length)) throw new Error(`${path}: index out of range`);
          parent.splice(index, 0, value);
        } else parent[last] = value;
        break;
      case 'replace':
        if (!holds(parent, last)) throw new Error(`${path}: nothing to replace`);
        parent[last] = value;
        break;
      case 'remove':
        if (!holds(parent, last)) throw new Error(`${path}: nothing to remove`);
        if (list) parent.splice(Number(last), 1); else delete parent[last];
        break;
      default:
        throw new Error(`unsupported operation '${op}'`);
    }
  }
  return result;
}

// ---- Server-Sent Events ---------------------------------------------------------------------------

/** Reads a `text/event-stream` as it arrives, cut anywhere: `feed(text)` answers the events it completed. */
export class EventStreamParser {
  constructor() {
    this.buffer = '';
    this.type = '';
    this.data = [];
    this.id = null;
    /** The last event id seen (`id:`), kept across events as the standard says. */
    this.lastEventId = null;
    /** The server's `retry:` in milliseconds, once it sent one. */
    this.retry = null;
  }

  /** The events `text` completes: `{ type, data, id }` (`type` `message` unless named). */
  feed(text) {
    this.buffer += text;
    const events = [];
    let start = 0;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer.slice(start));
      if (!match) break;
      // A lone `\r` at the very end may be the first half of `\r\n`: wait for the next piece.
      if (match[0] === '\r' && start + match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(start, start + match.index);
      start += match.index + match[0].length;
      const event = this.line(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  line(line) {
    if (line === '') {
      if (this.data.length === 0) { this.type = ''; return null; }
      const event = { type: this.type || 'message', data: this.data.join('\n'), id: this.lastEventId };
      this.type = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.type = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.retry = Number(value);
    return null;
  }
}

/**
 * What one stream event does to the document held: `{ doc }` (the document now), `{ gap: why }` (it does not follow
 * on: read the whole state again) or `{}` (another kind of event: nothing changes).
 */
export function streamStep(event, current) {
  if (event.type === 'state') {
    let doc;
    try { doc = JSON.parse(event.data); } catch { return { gap: 'a state event that is not JSON' }; }
    if (!isStateDocument(doc)) return { gap: 'a state event that is not a state document' };
    if (current && doc.version < current.version) {
      return { gap: `the state went back from version ${current.version} to ${doc.version}` };
    }
    return { doc };
  }
  if (event.type === 'patch') {
    if (!current) return { gap: 'a patch before any state' };
    try {
      const doc = applyPatch(current, JSON.parse(event.data));
      if (isStateDocument(doc) && doc.version > current.version) return { doc };
    } catch { /* falls through: a gap */ }
    return { gap: `a patch that does not apply to version ${current.version}` };
  }
  return {};
}

// ---- the API ---------------------------------------------------------------------------------------

const TRANSIENT = new Set([408, 429, 502, 503, 504]);
const MAX_PAUSE = 5000;
/** A stream that sends nothing for this long is dead (the server sends `: ping` every 15 s). */
const SILENCE = 45_000;

/** Calls an app's callback; what it throws is reported, never allowed to stop the client. */
function notify(callback, value) {
  try {
    callback(value);
  } catch (error) {
    console.error('switchyard-client: a callback threw', error);
  }
}
const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/** The pause before try `attempt` (from 1): 0.25 s doubling to 5 s, and never shorter than `floor` ms (the server's). */
function backoff(attempt, floor = 0) {
  return Math.max(floor, Math.min(MAX_PAUSE, 250 * 2 ** Math.min(attempt - 1, 5)));
}

/** A random UUID, also where `crypto.randomUUID` is missing (a page served over plain HTTP from another host). */
export function newId() {
  const random = globalThis.crypto;
  if (typeof random?.randomUUID === 'function') return random.randomUUID();
  const bytes = random?.getRandomValues ? random.getRandomValues(new Uint8Array(16))
    : Uint8Array.from({ length: 16 }, () => Math.floor(Math.random() * 256)); // Node 18 without --experimental-global-webcrypto
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The API of one server: requests, followers and intent queues. */
export class Switchyard {
  /**
   * @param {{server?: string, fetch?: typeof fetch}} [options] `server`: the base URL (`''`: this page's origin).
   */
  constructor({ server = '', fetch: fetcher } = {}) {
    this.server = server.replace(/\/+$/, '');
    this.fetch = fetcher || globalThis.fetch.bind(globalThis);
  }

  /** The path of session `id`'s resource. */
  sessionPath(id) {
    return `/api/sessions/${encodeURIComponent(id)}`;
  }

  /**
   * Sends a request and answers its JSON body (null when empty); a problem (or no answer) throws ClientProblem,
   * with `retryAfter` (ms) when the server sent `Retry-After`. `headers` are added to the request's.
   */
  async request(method, path, body, { headers = {}, signal } = {}) {
    const init = { method, headers: { Accept: 'application/json, application/problem+json', ...headers }, signal };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await this.fetch(this.server + path, init);
    } catch (error) {
      throw new ClientProblem(0, { title: 'Cannot reach the server', detail: String(error?.message || error) });
    }
    let text;
    try {
      text = await response.text();
    } catch (error) {
      // The answer broke off: as good as none (a change may have been applied; its retry is answered by its key).
      throw new ClientProblem(0, { title: 'Cannot reach the server', detail: String(error?.message || error) });
    }
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch { data = null; }
    }
    if (!response.ok) {
      const problem = data && typeof data === 'object' && (data.title || data.detail) ? data
        : { title: `${response.status} ${response.statusText || 'Error'}`, detail: text.slice(0, 300) };
      problem.status ??= response.status;
      const error = new ClientProblem(response.status, problem);
      error.retryAfter = retryAfterOf(response);
      throw error;
    }
    return data;
  }

  /** `POST /api/sessions`: a new session's state document. */
  createSession(body = {}) { return this.request('POST', '/api/sessions', body); }
  /** `GET /api/sessions/{id}`: the state document now. */
  getSession(id) { return this.request('GET', this.sessionPath(id)); }
  /** `GET /api/sessions/{id}/history`, with `?after=&limit=` when given. */
  history(id, { after, limit } = {}) {
    const query = new URLSearchParams();
    if (after !== undefined) query.set('after', String(after));
    if (limit !== undefined) query.set('limit', String(limit));
    const suffix = query.size ? `?${query}` : '';
    return this.request('GET', `${this.sessionPath(id)}/history${suffix}`);
  }
  /** `GET /api/sessions/{id}/versions/{n}`: the state document as it was at version `n`. */
  version(id, n) { return this.request('GET', `${this.sessionPath(id)}/versions/${encodeURIComponent(String(n))}`); }
  /** `GET /api/catalog`: every served app's coordinators, routes and deep links. */
  catalog() { return this.request('GET', '/api/catalog'); }
  /** `GET /api/sessions/{id}/catalog`: the catalog of the session's own app and version. */
  sessionCatalog(id) { return this.request('GET', `${this.sessionPath(id)}/catalog`); }
  /**
   * `GET /api/sessions/{id}/link`: the app's deep link that shows what the session has on screen (reverse routing),
   * `{session, version, path, link}` with `link` null when none does.
   */
  visibleLink(id) { return this.request('GET', `${this.sessionPath(id)}/link`); }
  /** `GET /api/sessions/{id}/versions/{n}/patch`: `{session, version, patch}`, the JSON Patch version `n` made. */
  versionPatch(id, n) {
    return this.request('GET', `${this.sessionPath(id)}/versions/${encodeURIComponent(String(n))}/patch`);
  }
  /** `GET /api/sessions/{id}/refusals`: `{session, version, refusals}`, the latest changes it refused (not versions). */
  refusals(id) { return this.request('GET', `${this.sessionPath(id)}/refusals`); }

  /** Follows session `id`'s stream (see SessionFollower); it starts at once. */
  follow(id, options = {}) {
    const follower = new SessionFollower(this, id, options);
    follower.start();
    return follower;
  }

  /** A queue of session `id`'s intents (see IntentQueue). */
  intents(id, options = {}) {
    return new IntentQueue(this, id, options);
  }
}

function retryAfterOf(response) {
  const value = response.headers.get('Retry-After');
  if (value === null) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

// ---- following a session ---------------------------------------------------------------------------

/**
 * Follows a session's stream for as long as it is wanted, through disconnections and server restarts: every state
 * in order (`onState(doc)`), and how the connection is doing (`onConnection(state)`: `{state: 'connecting'}`,
 * `{state: 'live'}`, `{state: 'reconnecting', next: Date, attempt}`, `{state: 'failed', problem}`). It reconnects
 * with a growing pause (0.25 s doubling to 5 s, never shorter than the server's `retry:`) and sends
 * `Last-Event-ID`, so the server replays the versions missed as patches; a patch that does not follow on (a gap)
 * reconnects at once without it, which starts with the whole state (`onGap(why)` says so). A stream silent for
 * 45 s (the server pings every 15 s) counts as dropped. `document` stays the last state while reconnecting. What
 * a callback throws is logged and does not stop it.
 */
export class SessionFollower {
  constructor(client, session, { onState = () => {}, onConnection = () => {}, onGap = () => {} } = {}) {
    this.client = client;
    this.session = session;
    this.onState = onState;
    this.onConnection = onConnection;
    this.onGap = onGap;
    /** The last state received. */
    this.document = null;
    /** The connection's state now. */
    this.connection = { state: 'connecting' };
    this.stopped = false;
    this.controller = null;
  }

  /** Starts following (Switchyard.follow calls it). */
  start() {
    this.report({ state: 'connecting' });
    this.loop();
  }

  /** Stops following. */
  stop() {
    this.stopped = true;
    this.controller?.abort();
  }

  report(connection) {
    this.connection = connection;
    if (!this.stopped || connection.state === 'failed') notify(this.onConnection, connection);
  }

  async loop() {
    let attempt = 0;
    let gaps = 0;
    while (!this.stopped) {
      const outcome = await this.once(gaps > 0);
      if (this.stopped) return;
      if (outcome.failed) {
        this.stopped = true;
        this.report({ state: 'failed', problem: outcome.failed });
        return;
      }
      // After a gap the next connection starts over at once; gaps one after the other back off like failures.
      gaps = outcome.gap ? gaps + 1 : 0;
      if (outcome.opened && !outcome.gap) attempt = 0;
      attempt += 1;
      const pause = gaps === 1 ? 0 : backoff(attempt, outcome.retry ?? 250);
      this.report({ state: 'reconnecting', next: new Date(Date.now() + pause), attempt });
      if (pause) await wait(pause);
    }
  }

  /**
   * One connection: `{opened, retry, gap?, failed?}` once it ends. A `fresh` one (after a gap) is sent without
   * `Last-Event-ID`, and the whole state it starts with is taken as it is, even if older than the one held.
   */
  async once(fresh) {
    const controller = new AbortController();
    this.controller = controller;
    let silence = setTimeout(() => controller.abort(), SILENCE);
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => controller.abort(), SILENCE);
    };
    try {
      return await this.read(controller, fresh, heard);
    } finally {
      clearTimeout(silence);
      controller.abort();
    }
  }

  async read(controller, fresh, heard) {
    const headers = { Accept: 'text/event-stream' };
    if (this.document && !fresh) headers['Last-Event-ID'] = String(this.document.version);
    const parser = new EventStreamParser();
    let response;
    try {
      response = await this.client.fetch(`${this.client.server}${this.client.sessionPath(this.session)}/stream`,
        { headers, signal: controller.signal, cache: 'no-store' });
    } catch {
      return { opened: false, retry: null };
    }
    if (response.status === 404 || response.status === 410) {
      const problem = await response.json().catch(() => ({ title: `HTTP ${response.status}` }));
      return { failed: new ClientProblem(response.status, problem) };
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => {});
      return { opened: false, retry: retryAfterOf(response) };
    }
    this.report({ state: 'live' });
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    let held = fresh ? null : this.document;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        heard();
        for (const event of parser.feed(decoder.decode(value, { stream: true }))) {
          const step = streamStep(event, held);
          if (step.doc) {
            this.document = step.doc;
            held = step.doc;
            notify(this.onState, step.doc);
          } else if (step.gap) {
            notify(this.onGap, step.gap);
            return { opened: true, retry: parser.retry, gap: step.gap };
          }
        }
      }
    } catch {
      // The connection broke, went silent, or was stopped: reconnect, unless stopped.
    }
    return { opened: true, retry: parser.retry };
  }
}

// ---- intents ---------------------------------------------------------------------------------------

/** Builders of a transition's steps (docs/state-document.md, "Steps"). */
export const steps = {
  push: (route, input) => withInput({ action: 'push', route }, input),
  present: (route, input, presentation = 'modal') => withInput({ action: 'present', route, presentation }, input),
  route: (route, input) => withInput({ action: 'route', route }, input),
  show: (route, input) => withInput({ action: 'show', route }, input),
  root: (route, input) => withInput({ action: 'root', route }, input),
  focus: (route) => ({ action: 'focus', route }),
  pop: () => ({ action: 'pop' }),
  popToRoot: () => ({ action: 'popToRoot' }),
  popTo: (route) => ({ action: 'popTo', route }),
  popItem: (item) => ({ action: 'popItem', item }),
  dismiss: () => ({ action: 'dismiss' }),
  child: () => ({ action: 'child' }),
  finish: (result) => ({ action: 'finish', result }),
  respondToAlert: (choice) => ({ action: 'respondToAlert', choice }),
  back: () => ({ action: 'back' }),
  dismissModal: () => ({ action: 'dismissModal' }),
  selectTab: (route) => ({ action: 'selectTab', route }),
};

function withInput(step, input) {
  return input === undefined ? step : { ...step, input };
}

/**
 * Builders of intents: `{id, kind, body}`, where `kind` names the endpoint (`transitions`, `events`, `deeplinks`)
 * and `id` is sent as `Idempotency-Key` on every try.
 */
export const intents = {
  /** Steps in order from `coordinator` (the root coordinator when absent). */
  transition(stepList, { coordinator, expectedVersion } = {}) {
    const body = { steps: stepList };
    if (coordinator !== undefined) body.coordinator = coordinator;
    if (expectedVersion !== undefined) body.expectedVersion = expectedVersion;
    return { id: newId(), kind: 'transitions', body };
  },
  /** A flow event `name`, with its `payload` and the screen's `fields` by id. */
  event(name, { from, payload, fields, expectedVersion } = {}) {
    const body = { name };
    if (from !== undefined) body.from = from;
    if (payload !== undefined && payload !== null) body.payload = payload;
    if (fields && Object.keys(fields).length) body.fields = fields;
    if (expectedVersion !== undefined) body.expectedVersion = expectedVersion;
    return { id: newId(), kind: 'events', body };
  },
  /** A deep link. */
  deepLink(url, { expectedVersion } = {}) {
    const body = { url };
    if (expectedVersion !== undefined) body.expectedVersion = expectedVersion;
    return { id: newId(), kind: 'deeplinks', body };
  },
  /** Back to the session's state at `version`, as a new change. */
  restore(version, { expectedVersion } = {}) {
    const body = { version };
    if (expectedVersion !== undefined) body.expectedVersion = expectedVersion;
    return { id: newId(), kind: 'restore', body };
  },
  /**
   * What tapping a control whose `action` is this sends, with the screen's field values by id (`fields`); null for
   * an action this client does not know.
   */
  ofAction(action, fields = {}) {
    if (action?.type === 'transition') return intents.transition(action.steps || [], { coordinator: action.coordinator });
    if (action?.type === 'event') {
      const values = {};
      for (const name of action.fields || []) values[name] = fields[name] ?? '';
      return intents.event(action.name, { from: action.from, payload: action.payload, fields: values });
    }
    if (action?.type === 'deepLink') return intents.deepLink(action.url);
    return null;
  },
};

/** Intents kept in memory only. */
export function memoryStorage() {
  let kept = [];
  return { load: () => kept, save: (list) => { kept = list; } };
}

/** Intents kept under `key` in a Web Storage (`localStorage`): they outlive a reload and a time offline. */
export function webStorage(storage, key) {
  return {
    load: () => {
      try { return JSON.parse(storage.getItem(key) || '[]'); } catch { return []; }
    },
    save: (list) => {
      if (list.length) storage.setItem(key, JSON.stringify(list)); else storage.removeItem(key);
    },
  };
}

/**
 * Sends a session's intents in order, each until the server has answered it for good, keeping those not yet
 * answered in `storage` (`{load(), save(list)}`; memory unless given) so they outlive a reload or a time offline.
 * Each carries its id as `Idempotency-Key` on every try: an intent applied whose answer was lost is answered again
 * from the server's memory of the key, never applied twice. Answers split in two:
 * - for good: 2xx (`{intent, applied: doc}`) or a problem the intent caused (`{intent, refused:
 *   ClientProblem}`: a navigation rule's 409, a guard's redirect, a 412, a 404); the intent leaves the queue;
 * - passing: no answer, 408, 429, 502, 503, 504: it stays first and is sent again after a pause from 0.25 s to 5 s,
 *   at least the server's `Retry-After` (`onRetry({intent, attempt, next, problem})` says so).
 * `send` answers a promise of the intent's delivery; `onDelivery(delivery)` hears of every one, those of intents
 * left from before included.
 */
export class IntentQueue {
  constructor(client, session, { storage = memoryStorage(), onDelivery = () => {}, onRetry = () => {} } = {}) {
    this.client = client;
    this.session = session;
    this.storage = storage;
    this.onDelivery = onDelivery;
    this.onRetry = onRetry;
    this.pending = [...storage.load()];
    this.waiting = new Map();
    this.stopped = false;
    this.running = null;
    this.controller = null;
    if (this.pending.length) this.kick();
  }

  /**
   * Adds `intent` at the end (kept in the storage before this returns; a storage that cannot keep it throws, and
   * the intent is not queued). The promise resolves with its delivery, or rejects if the queue is stopped first.
   */
  send(intent) {
    if (this.stopped) return Promise.reject(new Error('the queue is stopped'));
    this.pending.push(intent);
    try {
      this.storage.save(this.pending);
    } catch (error) {
      this.pending.pop();
      throw error;
    }
    const delivered = new Promise((resolve, reject) => { this.waiting.set(intent.id, { resolve, reject }); });
    this.kick();
    return delivered;
  }

  /**
   * Stops sending; what is not answered stays in the storage for the next queue, and the promises of its intents
   * reject.
   */
  stop() {
    this.stopped = true;
    this.controller?.abort();
    for (const { reject } of this.waiting.values()) reject(new Error('the queue was stopped before an answer'));
    this.waiting.clear();
  }

  /** Resolves once every intent sent so far is answered for good (or the queue stopped). */
  async drained() {
    while (this.running) await this.running;
  }

  kick() {
    if (this.running || this.stopped) return;
    this.running = this.run().finally(() => {
      this.running = null;
      // An intent sent while the loop was finishing (its promise settled first) starts it again.
      if (this.pending.length) this.kick();
    });
  }

  async run() {
    let attempt = 0;
    while (!this.stopped && this.pending.length) {
      const intent = this.pending[0];
      const outcome = await this.post(intent);
      if (this.stopped) return;
      if (outcome.again) {
        attempt += 1;
        const pause = backoff(attempt, outcome.again.retryAfter ?? 0);
        notify(this.onRetry, { intent, attempt, next: new Date(Date.now() + pause), problem: outcome.again.problem });
        await wait(pause);
        continue;
      }
      attempt = 0;
      if (this.pending[0]?.id === intent.id) this.pending.shift();
      try {
        this.storage.save(this.pending);
      } catch (error) {
        console.error('switchyard-client: the storage could not drop an answered intent', error);
      }
      const delivery = { intent, ...outcome.done };
      notify(this.onDelivery, delivery);
      this.waiting.get(intent.id)?.resolve(delivery);
      this.waiting.delete(intent.id);
    }
  }

  async post(intent) {
    this.controller = new AbortController();
    try {
      const answer = await this.client.request('POST', `${this.client.sessionPath(this.session)}/${intent.kind}`,
        intent.body, { headers: { 'Idempotency-Key': intent.id }, signal: this.controller.signal });
      // A 2xx that is not a state document did not come from the server (a proxy's page): try again.
      if (!isStateDocument(answer)) return { again: { retryAfter: null, problem: null } };
      return { done: { applied: answer } };
    } catch (error) {
      if (!(error instanceof ClientProblem)) return { again: { retryAfter: null, problem: null } };
      if (error.status === 0 || TRANSIENT.has(error.status)) {
        return { again: { retryAfter: error.retryAfter ?? null, problem: error } };
      }
      return { done: { refused: error } };
    }
  }
}
