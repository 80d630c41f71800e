// The real `switchyard` binary (.build/debug/switchyard, built by `make build-tests`) as a child process on a free
// loopback port and its own data folder: started, killed with SIGKILL, started again on the same store and port.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const binary = process.env.SWITCHYARD_BIN || join(root, '.build/debug/switchyard');

/** A port free now on 127.0.0.1. */
function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

export class ServerProcess {
  /** A server on a new data folder (SQLite) and a free port; call start(). */
  static async create() {
    const server = new ServerProcess();
    server.port = await freePort();
    server.data = mkdtempSync(join(tmpdir(), 'switchyard-js-'));
    server.url = `http://127.0.0.1:${server.port}`;
    return server;
  }

  async start() {
    const log = openSync(join(this.data, 'server.log'), 'a');
    this.child = spawn(binary, ['serve', '--data', this.data, '--port', String(this.port), '--public', join(root, 'Public'),
      '--session-create-rate', '0', '--log-level', 'warning',
      // Every version kept, so a test can read each intent back from the history.
      '--history-retention', 'all', '--max-history', '16M'], { stdio: ['ignore', log, log] });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${this.url}/healthz`)).status === 200) return this;
      } catch { /* not yet */ }
      if (this.child.exitCode !== null) break;
      await new Promise((r) => { setTimeout(r, 100); });
    }
    throw new Error(`the server did not answer /healthz within 30 s (log: ${join(this.data, 'server.log')})`);
  }

  /** SIGKILL: no shutdown, no flush; resolves once the process is gone. */
  async kill9() {
    if (!this.child || this.child.exitCode !== null) return;
    const gone = new Promise((r) => { this.child.once('exit', r); });
    this.child.kill('SIGKILL');
    await gone;
  }

  /** Stops the server and removes its data folder. */
  async cleanup() {
    await this.kill9();
    rmSync(this.data, { recursive: true, force: true });
  }

  /** A request with a JSON body; answers { status, json }. */
  async request(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(this.url + path, init);
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : null };
  }

  /** A new session past onboarding and login (versions 1 and 2): its id. */
  async loggedInSession() {
    const { json } = await this.request('POST', '/api/sessions', {});
    const id = json.session;
    await this.request('POST', `/api/sessions/${id}/events`, { name: 'completeOnboarding' });
    const login = await this.request('POST', `/api/sessions/${id}/events`, { name: 'login', fields: { username: 'ada' } });
    if (login.status !== 200) throw new Error(`login: ${login.status}`);
    return id;
  }
}
