// The inspector's release panel: with the admin token, the served apps' versions, a replay of a sample of the
// stored sessions on one of them (POST /api/admin/apps/{app}/versions/{version}/replay) and its latest report:
// replayed, clean, diverged, and the reasons with an example session each (docs/app-versions.md, "Before a
// release: replay"). The token is kept in this page's memory only.
import { el } from './screen.js';
import { showProblem } from './toast.js';

/** The report's one-line summary: `3 replayed: 2 clean, 1 diverged · 15 requests, 492 requests/s`. */
export function replaySummary(report) {
  const counts = `${report.replayed} replayed: ${report.clean} clean, ${report.diverged} diverged`;
  const rate = `${report.requests} requests, ${Math.round(report.requestsPerSecond)} requests/s`;
  return [counts, rate, report.stopped ? `stopped: ${report.stopped}` : null,
    report.failure ? `could not replay: ${report.failure}` : null].filter(Boolean).join(' · ');
}

/** The versions to pick from in `GET /api/admin/apps`'s answer: `{app, version, label}`, the rollout's weight said. */
export function replayCandidates(overview) {
  return (overview.apps || []).flatMap((app) => (app.versions || []).map((v) => {
    const share = (app.rollout || []).find((s) => s.version === v.version);
    const weight = share ? `weight ${share.weight}` : 'no new sessions';
    return { app: app.name, version: v.version, label: `${app.name}@${v.version} · ${v.source || 'served'} · ${weight}` };
  }));
}

/** `fetch` of an admin endpoint (at `base`, the page's origin by default) with the token: the JSON answer, or throws
 * an error carrying the problem document as `problem`. */
export async function admin(token, method, path, body, base = '') {
  const headers = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw Object.assign(new Error(answer.detail || response.statusText), { problem: { status: response.status, ...answer } });
  return answer;
}

function mount(inspector) {
  const token = el('input', {
    id: 'replay-token', type: 'password', spellcheck: false, placeholder: 'Admin token',
    required: true, 'data-testid': 'replay-token', 'aria-label': 'Admin token',
  });
  const form = el('form', { class: 'deeplink' }, token,
    el('button', { type: 'submit', class: 'btn-ghost', 'data-testid': 'replay-load', text: 'Load' }));
  const pick = el('select', { class: 'hfilter', id: 'replay-version', 'data-testid': 'replay-version', 'aria-label': 'Version to replay' });
  const run = el('button', { type: 'button', class: 'btn-accent btn-small', 'data-testid': 'replay-run', text: 'Replay sample' });
  const controls = el('div', { class: 'section-head', hidden: true }, pick, run);
  const summary = el('p', { class: 'hint', 'data-testid': 'replay-summary', 'aria-live': 'polite' });
  const groups = el('ol', { class: 'history', 'data-testid': 'replay-groups' });
  // Closed until opened: one tab stop for those who never use it. The heading sits beside the disclosure marker.
  const heading = el('h2', { id: 'replay-h', text: 'Release replay' });
  heading.style.display = 'inline';
  const opener = el('summary', { 'data-testid': 'replay-open' }, heading);
  Object.assign(opener.style, { cursor: 'pointer', marginBottom: '14px', color: 'var(--insp-muted)' });
  const section = el('section', { class: 'insp-section', 'aria-labelledby': 'replay-h', 'data-testid': 'replay-panel' },
    el('details', {},
      opener,
      el('p', { class: 'hint', text: 'With the admin token: replay a sample of the stored sessions on a version before '
        + 'it takes traffic, and see which journeys would now go elsewhere. Nothing is changed.' }),
      form, controls, summary, groups));
  inspector.insertBefore(section, document.getElementById('map-dialog'));

  let candidates = [];
  const chosen = () => candidates[Number(pick.value)];
  const path = (c) => `/api/admin/apps/${encodeURIComponent(c.app)}/versions/${c.version}/replay`;
  const show = (report) => {
    summary.textContent = report ? replaySummary(report) : 'No replay yet.';
    groups.replaceChildren(...(report?.groups || []).map((group) => el('li', { class: 'hentry', 'data-testid': 'replay-group' },
      el('span', { class: 'hview' },
        el('span', { text: `${group.sessions} × ${group.reason}` }),
        el('span', { class: 'hline' }, 'e.g. ', el('a', { href: `/s/${group.example}`, text: group.example.slice(0, 12) }))))));
  };
  const failed = (error) => {
    if (error.problem) showProblem(error.problem); else showProblem({ title: 'Replay failed', detail: String(error) });
  };
  const latest = async () => {
    const candidate = chosen();
    if (!candidate) return;
    try {
      show(await admin(token.value, 'GET', path(candidate)));
    } catch (error) {
      if (error.problem?.code === 'noReplayYet') show(null); else failed(error);
    }
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      candidates = replayCandidates(await admin(token.value, 'GET', '/api/admin/apps'));
      pick.replaceChildren(...candidates.map((c, index) => el('option', { value: String(index), text: c.label })));
      controls.hidden = candidates.length === 0;
      await latest();
    } catch (error) {
      failed(error);
    }
  });
  pick.addEventListener('change', latest);
  run.addEventListener('click', async () => {
    const candidate = chosen();
    if (!candidate) return;
    run.disabled = true;
    summary.textContent = `Replaying ${candidate.app}@${candidate.version}…`;
    try {
      show(await admin(token.value, 'POST', path(candidate), {}));
    } catch (error) {
      summary.textContent = '';
      failed(error);
    } finally {
      run.disabled = false;
    }
  });
}

if (typeof document !== 'undefined') {
  const inspector = document.getElementById('inspector');
  if (inspector) mount(inspector);
}
