// The map's heat layer: traffic from the stored sessions (GET /api/admin/coverage, admin only) drawn over the map of
// the app. Each route row shows how many sessions showed a screen it tops; each edge (a route that opens a
// coordinator) is as thick as the transitions that opened it were taken, and dimmed when none was. The counts are for
// a chosen window (since, until) or funnel (steps: only the sessions that complete it). docs/analytics.md#the-maps-heat-layer

import { resolvePath } from './map.js';

/** The thinnest and thickest edge drawn for traffic (SVG units); an edge never taken is drawn thin and dimmed. */
export const THIN = 1;
export const THICK = 7;

/** The routes new on `to` after `from` (both visible paths), as `type/route` keys: what a change opened. */
export function opened(catalog, from, to) {
  const before = resolvePath(catalog, from);
  const after = resolvePath(catalog, to);
  let same = 0;
  while (same < before.length && same < after.length
    && before[same].type === after[same].type && before[same].route === after[same].route) same++;
  return after.slice(same).map((step) => `${step.type}/${step.route}`);
}

/**
 * The heat of a coverage report on a catalog's map: `routes` (per `type/route`, the sessions that showed a screen
 * whose top route it is), `edges` (per `type/route`, how often changes opened it and by how many sessions, summed
 * over the transitions that did), their maxima, and the totals the legend reads out.
 */
export function heatOf(catalog, report) {
  const path = (text) => (text ? String(text).split('/') : []);
  const routes = new Map();
  for (const row of report.screens || []) {
    const steps = resolvePath(catalog, path(row.screen));
    const top = steps[steps.length - 1];
    if (!top) continue;
    const key = `${top.type}/${top.route}`;
    routes.set(key, (routes.get(key) || 0) + (row.sessions || 0));
  }
  const edges = new Map();
  for (const row of [...(report.edges || []), ...(report.unexplored || [])]) {
    if (!row.taken) continue;
    for (const key of opened(catalog, path(row.from), path(row.to))) {
      const heat = edges.get(key) || { taken: 0, sessions: 0 };
      heat.taken += row.taken;
      heat.sessions += row.sessions || 0;
      edges.set(key, heat);
    }
  }
  return {
    routes,
    edges,
    maxRoute: Math.max(0, ...routes.values()),
    maxTaken: Math.max(0, ...[...edges.values()].map((h) => h.taken)),
    sessions: report.sessions || 0,
    covered: report.covered || 0,
    transitions: report.transitions || 0,
  };
}

/** An edge's width for `taken` out of the hottest `max`: THIN when never taken, up to THICK on a log scale. */
export function thickness(taken, max) {
  if (!taken || !max) return THIN;
  return Math.round((1.6 + (THICK - 1.6) * (Math.log1p(taken) / Math.log1p(max))) * 10) / 10;
}

/** A heat level from 0 (none) to 5 (the hottest), for a route row's colour; on the same log scale. */
export function level(count, max) {
  if (!count || !max) return 0;
  return Math.max(1, Math.min(5, Math.ceil(5 * (Math.log1p(count) / Math.log1p(max)))));
}

/** The coverage endpoint's query for a form's values (empty ones left out). */
export function coveragePath({ app, steps, since, until } = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries({ app, steps, since, until })) {
    if (value && String(value).trim()) query.set(name, String(value).trim());
  }
  const text = query.toString();
  return `/api/admin/coverage${text ? `?${text}` : ''}`;
}

/** The legend for a heat: sessions counted and transitions taken. */
export function legend(heat) {
  const percent = heat.transitions ? Math.round((1000 * heat.covered) / heat.transitions) / 10 : 0;
  return `${heat.sessions} sessions; ${heat.covered} of ${heat.transitions} explored transitions taken (${percent} %)`;
}

/**
 * The heat layer of the maps (`AppMap`s): asks the coverage endpoint with the admin token typed in the form and
 * decorates each map's edges and routes; cleared, the maps are as before.
 */
export class HeatLayer {
  /** `maps`: the AppMaps to decorate; `client`: the page's Switchyard client; `form`: the heat form's elements. */
  constructor(maps, client, form) {
    this.maps = maps;
    this.client = client;
    this.form = form;
    this.report = null;
    for (const map of maps) map.overlay = (parts) => this.decorate(map, parts);
    const remembered = sessionStorage.getItem('switchyard.adminToken');
    if (remembered) form.token.value = remembered;
    form.element.addEventListener('submit', (event) => { event.preventDefault(); this.load(); });
    form.clear.addEventListener('click', () => this.clear());
  }

  /** Asks the coverage endpoint for the form's window or funnel and redraws the maps with it. */
  async load() {
    const token = this.form.token.value.trim();
    sessionStorage.setItem('switchyard.adminToken', token);
    const app = this.maps[0].catalog?.app;
    const path = coveragePath({
      app, steps: this.form.steps.value, since: this.form.since.value, until: this.form.until.value,
    });
    this.form.status.textContent = 'Counting the stored sessions…';
    try {
      // The first request for an app version starts its exploration: 503 notReady with Retry-After until done.
      for (let attempt = 0; ; attempt++) {
        try {
          this.report = await this.client.request('GET', path, undefined, { headers: { Authorization: `Bearer ${token}` } });
          break;
        } catch (problem) {
          if (problem?.status !== 503 || problem?.code !== 'notReady' || attempt >= 60) throw problem;
          this.form.status.textContent = 'Exploring the app’s graph (once per app version)…';
          await new Promise((resolve) => { setTimeout(resolve, problem.retryAfter || 2000); });
        }
      }
    } catch (problem) {
      this.report = null;
      const status = problem?.status;
      this.form.status.textContent = status === 404
        ? 'No admin endpoints: start the server with an admin token (--admin-token).'
        : status === 401 ? 'The admin token is wrong.' : `${problem?.problem?.title || 'Failed'}: ${problem?.problem?.detail || ''}`;
    }
    this.redraw();
  }

  /** Removes the heat from the maps. */
  clear() {
    this.report = null;
    this.form.status.textContent = '';
    this.redraw();
  }

  redraw() {
    for (const map of this.maps) if (map.catalog) map.update();
  }

  /** Decorates a map's drawn parts (`AppMap.parts`) with the heat, or removes it. */
  decorate(map, parts) {
    const heat = this.report && map.catalog ? heatOf(map.catalog, this.report) : null;
    map.container.classList.toggle('has-heat', !!heat);
    if (heat && map === this.maps[0]) {
      this.form.status.textContent = legend(heat)
        + (this.report.notes?.length ? ` — ${this.report.notes.join('; ')}` : '');
    }
    for (const { key, path } of parts.edges) {
      const edge = heat?.edges.get(key);
      path.classList.toggle('heat-cold', !!heat && !edge);
      path.style.strokeWidth = heat && edge ? `${thickness(edge.taken, heat.maxTaken)}px` : '';
      path.dataset.taken = heat ? String(edge?.taken || 0) : '';
    }
    for (const { type, route, row, title } of parts.routes) {
      const sessions = heat?.routes.get(`${type}/${route.name}`) || 0;
      for (let l = 0; l <= 5; l++) row.classList.toggle(`heat-${l}`, !!heat && level(sessions, heat.maxRoute) === l);
      if (!heat) { delete row.dataset.sessions; continue; }
      row.dataset.sessions = String(sessions);
      const opened = heat.edges.get(`${type}/${route.name}`)?.taken || 0;
      const said = `, stored sessions: ${sessions} on it, opened ${opened} time${opened === 1 ? '' : 's'}`;
      if (!title.textContent.includes(', stored sessions:')) title.textContent += said;
      const label = row.getAttribute('aria-label') || '';
      if (!label.includes(', stored sessions:')) row.setAttribute('aria-label', label + said);
    }
  }
}
