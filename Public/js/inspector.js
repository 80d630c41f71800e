// The inspector beside the phone: session facts, the coordinator tree, history, deep links, curl.
import { el } from './screen.js';

const HINT_KEY = 'switchyard.hint';

export class Inspector {
  /**
   * handlers: { onDeepLink(url), onPreviewDeepLink(url), onViewVersion(version), onNewSession(),
   *   onLoadPatch(version) → Promise<patch> }
   */
  constructor(root, handlers) {
    this.$ = (id) => root.querySelector(`#${id}`);
    this.choices = new Map();
    this.curlText = '';
    this.$('new-session').addEventListener('click', () => handlers.onNewSession());
    const input = this.$('deeplink-input');
    this.$('deeplink-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const url = input.value.trim();
      if (url) handlers.onDeepLink(url);
    });
    this.$('deeplink-preview').addEventListener('click', () => {
      const url = input.value.trim();
      if (url) handlers.onPreviewDeepLink(url);
      else input.reportValidity();
    });
    this.onViewVersion = handlers.onViewVersion;
    this.onLoadPatch = handlers.onLoadPatch;
    this.entries = [];
    this.refusals = [];
    this.opened = new Set(); // versions whose details are open: they stay open across redraws
    this.patches = new Map(); // version → its JSON Patch, once read
    this.$('history-filter').addEventListener('change', () => this.applyFilter());
    this.showHint();
    this.$('copy-curl').addEventListener('click', () => this.copyCurl());
  }

  /** The newcomer's hint, until it is dismissed (remembered in this browser). */
  showHint() {
    const hint = this.$('hint');
    let dismissed = false;
    try { dismissed = localStorage.getItem(HINT_KEY) === 'dismissed'; } catch { /* storage off: show it */ }
    hint.hidden = dismissed;
    this.$('hint-dismiss').addEventListener('click', () => {
      hint.hidden = true;
      try { localStorage.setItem(HINT_KEY, 'dismissed'); } catch { /* it shows again next time */ }
      this.$('deeplink-input').focus();
    });
  }

  /** Chips that fill in the app's example deep links (from GET /api/catalog). */
  showDeepLinkExamples(urls) {
    const input = this.$('deeplink-input');
    if (urls.length) input.placeholder = urls[0];
    this.$('deeplink-examples').replaceChildren(...urls.map((url) => {
      const chip = el('button', { type: 'button', class: 'chip', 'data-testid': 'deeplink-example', text: url, title: `Use ${url}` });
      chip.setAttribute('aria-label', `Fill in ${url}`);
      chip.addEventListener('click', () => { input.value = url; input.focus(); });
      return chip;
    }));
  }

  showSession(doc, view, live) {
    this.$('session-id').textContent = doc.session;
    this.$('version').textContent = String(doc.version);
    const path = doc.visible?.path || [];
    const vp = this.$('visible-path');
    vp.replaceChildren(...path.flatMap((r, i) => [i ? el('span', { class: 'sep', text: '›', 'aria-hidden': 'true' }) : null, el('span', { class: 'crumb', text: r })]).filter(Boolean));
    vp.setAttribute('aria-label', `Visible path: ${path.join(', ')}`);
    const pending = this.$('pending-link');
    const waiting = [
      doc.pendingDeepLink ? `Waiting deep link: ${doc.pendingDeepLink}` : null,
      doc.pendingRoute ? `Waiting for its guard: ${doc.pendingRoute.route} (${doc.pendingRoute.type})` : null,
    ].filter(Boolean);
    pending.hidden = !waiting.length;
    pending.textContent = waiting.join(' · ');
    this.renderTree(doc, view);
    if (live !== undefined) this.setLive(live);
  }

  setLive(state) {
    const live = this.$('live');
    live.dataset.state = state;
    live.textContent = { on: 'live', connecting: 'connecting…', off: 'offline' }[state] || state;
  }

  renderTree(doc, view) {
    const onPath = { nodes: view.nodes, entries: view.entries, item: doc.visible?.item };
    this.$('tree').replaceChildren(this.nodeEl(doc.tree, onPath));
  }

  nodeEl(node, onPath) {
    const details = el('details', { class: `tnode ${onPath.nodes.has(node.id) ? 'on-path' : ''}`, 'data-node': node.id });
    // Nodes on the visible path start open, others closed; a user's own choice sticks.
    const initial = this.choices.get(node.id) ?? onPath.nodes.has(node.id);
    details.open = initial;
    details.addEventListener('toggle', () => {
      if (details.open !== initial) this.choices.set(node.id, details.open);
    });
    details.append(el('summary', {},
      el('span', { class: `kind kind-${node.kind}`, text: node.kind }),
      el('span', { class: 'ttype', text: node.type }),
      el('code', { class: 'tid', text: node.id })));
    const list = el('ul', { class: 'tentries' });
    if (node.root) list.append(this.entryEl('root', node.root, onPath));
    for (const tab of node.tabs || []) {
      const sel = tab.id === node.selectedTabId || (!node.selectedTabId && tab.route === node.selectedTab);
      list.append(this.entryEl(sel ? 'tab ✓' : 'tab', tab, onPath));
    }
    for (const item of node.stack || []) list.append(this.entryEl(item.presentation || 'item', item, onPath));
    if (node.alert) {
      list.append(el('li', { class: 'tentry talert' }, el('span', { class: 'role', text: 'alert' }),
        el('span', { class: 'troute', text: node.alert.title })));
    }
    details.append(list);
    return details;
  }

  entryEl(role, entry, onPath) {
    const classes = ['tentry'];
    if (onPath.entries.has(entry.id)) classes.push('on-path');
    if (entry.id === onPath.item) classes.push('visible-item');
    const li = el('li', { class: classes.join(' '), 'data-entry': entry.id },
      el('span', { class: 'role', text: role }),
      el('span', { class: 'troute', text: entry.route }),
      entry.input !== undefined && entry.input !== null
        ? el('span', { class: 'tinput', text: JSON.stringify(entry.input) }) : null,
      entry.animated === false ? el('span', { class: 'tflag', text: 'no anim' }) : null,
      entry.dismissible === false ? el('span', { class: 'tflag', text: 'locked' }) : null,
      el('code', { class: 'tid', text: entry.id }));
    if (entry.coordinator) li.append(this.nodeEl(entry.coordinator, onPath));
    return li;
  }

  /** Forgets the timeline of the session shown before (its open details, its patches). */
  resetTimeline() {
    this.generation = (this.generation || 0) + 1; // patches read for the session before are dropped
    this.entries = [];
    this.refusals = [];
    this.opened.clear();
    this.patches.clear();
    this.renderHistory([]);
    this.renderRefusals([]);
  }

  /** Shows the history or the refusals, as the filter says. */
  applyFilter() {
    const filter = this.$('history-filter').value;
    this.$('history').hidden = filter === 'refusals';
    this.$('refusals').hidden = filter !== 'refusals';
    this.renderHistory(this.entries);
  }

  renderHistory(entries) {
    const list = this.$('history');
    if (!entries) {
      list.replaceChildren(el('li', { class: 'muted', text: 'History unavailable.' }));
      return;
    }
    this.entries = entries;
    const filter = this.$('history-filter').value;
    // "guard": the routes a guard let in, and its redirects (which keep their request's source).
    const matches = (h) => h.source === filter || (filter === 'guard' && h.redirected);
    const shown = filter === 'all' || filter === 'refusals' ? entries : entries.filter(matches);
    const recent = shown.slice(-40).reverse();
    if (!recent.length && entries.length) {
      list.replaceChildren(el('li', { class: 'muted', text: `No ${filter} change in the latest ${entries.length}.` }));
      return;
    }
    // The control that has the keyboard's focus keeps it across the redraw (found again by version and kind).
    const active = list.contains(document.activeElement) ? document.activeElement : null;
    const version = active?.closest('[data-version]')?.dataset.version;
    const kind = active?.tagName === 'SUMMARY' ? 'summary' : '[data-testid=history-view]';
    list.replaceChildren(...recent.map((h) => this.historyEntry(h)));
    if (version) list.querySelector(`[data-version="${CSS.escape(version)}"] ${kind}`)?.focus();
  }

  historyEntry(h) {
    const time = h.time ? new Date(h.time) : null;
    const redirect = h.redirected
      ? `redirected: ${h.redirected.route} of ${h.redirected.type} waits for its guard` : null;
    const lifecycle = [
      h.started?.length ? `started ${h.started.map((c) => c.type).join(', ')}` : null,
      h.finished?.length ? `finished ${h.finished.map((c) => c.type).join(', ')}` : null,
    ].filter(Boolean).join(' · ');
    const view = el('button', { type: 'button', class: 'hview', 'data-testid': 'history-view' },
      el('span', { class: 'hline' },
        el('code', { class: 'hver', text: `v${h.version}` }),
        el('span', { class: `hsource src-${h.source}`, text: h.source || '' }),
        time && !Number.isNaN(time.valueOf())
          ? el('time', { datetime: time.toISOString(), text: time.toLocaleTimeString() }) : null),
      el('span', { class: 'hreq', text: summarize(h.request) }),
      redirect ? el('span', { class: 'hredirect', 'data-testid': 'history-redirect', text: `⤷ ${redirect}` }) : null,
      el('span', { class: 'hpath', text: (h.visiblePath || []).join(' › ') }),
      lifecycle ? el('span', { class: 'hlife', 'data-testid': 'history-lifecycle', text: lifecycle }) : null);
    view.setAttribute('aria-label',
      `See version ${h.version}: ${summarize(h.request)}${redirect ? `, ${redirect}` : ''}`);
    view.addEventListener('click', () => this.onViewVersion(h.version));
    const details = el('details', { class: 'hdetails', 'data-testid': 'history-details' },
      el('summary', { text: 'Changes' }));
    details.addEventListener('toggle', () => {
      if (details.open) {
        this.opened.add(h.version);
        this.fillDetails(details, h);
      } else {
        this.opened.delete(h.version);
      }
    });
    details.open = this.opened.has(h.version); // its toggle event fills it
    return el('li', { class: 'hentry', 'data-version': String(h.version) }, view, details);
  }

  /** The request as JSON and the JSON Patch the version made (read once, then kept). */
  async fillDetails(details, h) {
    const body = el('div', { class: 'hbody' },
      el('p', { class: 'hlabel', text: 'Request' }),
      el('pre', { class: 'hjson', text: JSON.stringify(h.request, null, 1) }),
      el('p', { class: 'hlabel', text: 'JSON Patch' }));
    const patchBox = el('pre', { class: 'hjson hpatch', 'data-testid': 'history-patch', text: 'Reading…' });
    body.append(patchBox);
    details.querySelector('.hbody')?.remove();
    details.append(body);
    let patch = this.patches.get(h.version);
    if (!patch) {
      const generation = this.generation;
      try {
        patch = await this.onLoadPatch(h.version);
        if (generation !== this.generation) return; // another session is shown now
        this.patches.set(h.version, patch);
      } catch (err) {
        patchBox.textContent = `Not available: ${err?.problem?.detail || err?.message || err}`;
        return;
      }
    }
    patchBox.textContent = patch.map(describeOperation).join('\n') || '(no change to the document)';
  }

  /** The latest refusals (oldest first), shown newest first under the "Refusals" filter. */
  renderRefusals(refusals) {
    this.refusals = refusals || [];
    const list = this.$('refusals');
    if (!this.refusals.length) {
      list.replaceChildren(el('li', { class: 'muted', text: 'No refusal yet.' }));
      return;
    }
    list.replaceChildren(...this.refusals.slice().reverse().map((r) => {
      const time = r.time ? new Date(r.time) : null;
      return el('li', { class: 'hentry hrefusal', 'data-testid': 'refusal' },
        el('div', { class: 'hview' },
          el('span', { class: 'hline' },
            el('code', { class: 'hver', text: `${r.status}` }),
            el('span', { class: 'hcode', text: r.problem?.code || r.source || '' }),
            time && !Number.isNaN(time.valueOf())
              ? el('time', { datetime: time.toISOString(), text: time.toLocaleTimeString() }) : null),
          el('span', { class: 'hreq', text: summarize(r.request) }),
          el('span', { class: 'hpath', text: `at v${r.version}: ${r.problem?.detail || r.problem?.title || ''}` })));
    }));
  }

  /** Back to "no change yet" (another session). */
  clearRequest() {
    this.curlText = '';
    this.$('curl').textContent = 'No change yet: tap something in the phone.';
    this.$('copy-curl').disabled = true;
  }

  showRequest(curl) {
    this.curlText = curl;
    this.$('curl').textContent = curl;
    this.$('copy-curl').disabled = false;
  }

  async copyCurl() {
    const button = this.$('copy-curl');
    let ok = false;
    try {
      await navigator.clipboard.writeText(this.curlText);
      ok = true;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(this.$('curl'));
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      ok = document.execCommand?.('copy') ?? false;
    }
    button.textContent = ok ? 'Copied' : 'Selected';
    setTimeout(() => { button.textContent = 'Copy'; }, 1500);
  }
}

/** One line for a JSON Patch operation: `replace /visible/path/2 "todos"`, long values cut. */
function describeOperation(op) {
  const value = 'value' in op ? ` ${JSON.stringify(op.value)}` : '';
  const from = op.from !== undefined ? ` from ${op.from}` : '';
  const text = `${op.op} ${op.path || '/'}${from}${value}`;
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

/** One line for a history request: the actions of a chain, an event name, a deep link URL. */
function summarize(request) {
  if (!request) return '';
  if (typeof request === 'string') return request;
  if (request.url) return `deep link ${request.url}`;
  if (request.version !== undefined) return `restore to v${request.version}`;
  if (request.name) return `event ${request.name}`;
  const steps = request.steps || (request.action ? [request] : []);
  if (steps.length) {
    return steps.map((s) => [s.action, s.route, s.choice].filter((x) => x !== undefined).join(' ')).join(' → ');
  }
  return JSON.stringify(request);
}
