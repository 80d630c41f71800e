// Thin client for the Switchyard REST API (see docs/state-document.md).

/** An HTTP error carrying the server's problem+json (or a synthesized one). */
export class ApiError extends Error {
  constructor(status, problem, body) {
    super(problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.body = body;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: 'application/json, application/problem+json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { title: 'Cannot reach the server', detail: String(err.message || err) }, null);
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const problem = data && typeof data === 'object' && (data.title || data.detail)
      ? data
      : { title: `${response.status} ${response.statusText || 'Error'}`, detail: text.slice(0, 300) };
    problem.status ??= response.status;
    throw new ApiError(response.status, problem, data);
  }
  return data;
}

const enc = encodeURIComponent;
export const sessionPath = (id) => `/api/sessions/${enc(id)}`;

export const api = {
  createSession: () => request('POST', '/api/sessions', {}),
  getSession: (id) => request('GET', sessionPath(id)),
  history: (id) => request('GET', `${sessionPath(id)}/history`),
  version: (id, version) => request('GET', `${sessionPath(id)}/versions/${enc(String(version))}`),
  post: (path, body) => request('POST', path, body),
  streamUrl: (id) => `${sessionPath(id)}/stream`,
  catalog: () => request('GET', '/api/catalog'),
  sessionCatalog: (id) => request('GET', `${sessionPath(id)}/catalog`),
};

/** The shell command equivalent to a POST of `body` to `path` on this origin. */
export function curlFor(path, body) {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  return `curl -sS -X POST ${location.origin}${path} -H 'Content-Type: application/json' -d '${json}'`;
}
