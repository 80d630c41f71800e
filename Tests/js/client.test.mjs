// switchyard-client.js, the module the page runs on, under Node's own test runner against the real server.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  EventStreamParser, Switchyard, applyPatch, intents, steps, streamStep,
} from '../../Public/js/switchyard-client.js';
import { ServerProcess } from './server.mjs';

/** Intents kept in a JSON file, written whole (a crash leaves the old file or the new one): Node's `localStorage`. */
function fileStorage(path) {
  return {
    load: () => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : []),
    save: (list) => {
      writeFileSync(`${path}.new`, JSON.stringify(list));
      renameSync(`${path}.new`, path);
    },
  };
}

/** Intent `index` of a run: a push, then a pop. Neither is idempotent: applied twice, either shows (a deeper stack,
 * or a pop too many: 409). */
const pushOrPop = (index) => intents.transition([index % 2 === 0 ? steps.push('todo', 'buy-milk') : steps.pop()],
  { coordinator: 'TodosCoordinator' });
const until = async (what, predicate, seconds = 30) => {
  const deadline = Date.now() + seconds * 1000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
    await new Promise((r) => { setTimeout(r, 20); });
  }
};

describe('the event stream parser', () => {
  const stream = 'retry: 1000\n\nid: 3\nevent: state\ndata: {"a":\ndata: 1}\n\n: comment\r\nid: 4\r\nevent: patch\r\ndata: []\r\n\r\n';
  test('reads the same events wherever the stream is cut', () => {
    const whole = new EventStreamParser().feed(stream);
    assert.deepEqual(whole, [
      { type: 'state', data: '{"a":\n1}', id: '3' },
      { type: 'patch', data: '[]', id: '4' },
    ]);
    for (let cut = 0; cut <= stream.length; cut += 1) {
      for (let second = cut; second <= stream.length; second += 7) {
        const parser = new EventStreamParser();
        const events = [stream.slice(0, cut), stream.slice(cut, second), stream.slice(second)].flatMap((p) => parser.feed(p));
        assert.deepEqual(events, whole, `cut at ${cut} and ${second}`);
        assert.equal(parser.retry, 1000);
      }
    }
  });

  test('a patch that does not follow on is a gap, and a state back in time too', () => {
    const current = { session: 's', version: 3, visible: { path: ['a'] } };
    const next = streamStep({ type: 'patch', data: '[{"op":"test","path":"/version","value":3},{"op":"replace","path":"/version","value":4}]' }, current);
    assert.equal(next.doc.version, 4);
    assert.match(streamStep({ type: 'patch', data: '[{"op":"test","path":"/version","value":2}]' }, current).gap, /version 3/);
    assert.match(streamStep({ type: 'state', data: JSON.stringify({ ...current, version: 2 }) }, current).gap, /went back/);
    assert.deepEqual(streamStep({ type: 'ping', data: '' }, current), {});
    assert.throws(() => applyPatch({ a: 1 }, [{ op: 'remove', path: '/b' }]));
  });
});

describe('the follower, on a scripted stream', () => {
  const doc = (version, path = ['a']) => ({ session: 's', version, visible: { path } });
  /** A fetch answering each stream request with the next of `bodies` (SSE text), then holding the last open. */
  const scripted = (bodies, seen) => async (url, init) => {
    seen.push(init.headers['Last-Event-ID'] ?? null);
    const text = bodies.shift();
    if (text === undefined) return new Promise(() => {});
    return new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  };

  test('after a gap it reconnects without Last-Event-ID and takes the whole state, even an older one', async (t) => {
    const headers = [];
    const states = [];
    const bodies = [
      `id: 5\nevent: state\ndata: ${JSON.stringify(doc(5))}\n\nid: 7\nevent: patch\ndata: [{"op":"test","path":"/version","value":6}]\n\n`,
      `id: 4\nevent: state\ndata: ${JSON.stringify(doc(4, ['b']))}\n\n`,
    ];
    const client = new Switchyard({ server: 'http://example.invalid', fetch: scripted(bodies, headers) });
    const follower = client.follow('s', {
      onState: (d) => { states.push(d.version); throw new Error('an app bug'); }, // logged, not fatal
    });
    t.after(() => follower.stop());
    await until('the older whole state is taken', () => states.length === 2, 10);
    assert.deepEqual(states, [5, 4]);
    assert.deepEqual(headers.slice(0, 2), [null, null], 'no Last-Event-ID after the gap');
    assert.deepEqual(follower.document.visible.path, ['b']);
  });
});

describe('against the real server', () => {
  let server;
  let client;
  before(async () => {
    server = await ServerProcess.create();
    await server.start();
    client = new Switchyard({ server: server.url });
  });
  after(async () => { await server?.cleanup(); });

  test('a 409 redirect and a 412 stale version reach the app as typed problems', async (t) => {
    const id = await server.loggedInSession();
    const queue = client.intents(id);
    t.after(() => queue.stop());
    assert.ok((await queue.send(intents.transition([steps.selectTab('settings')]))).applied); // version 3
    const redirected = (await queue.send(intents.transition([steps.push('admin')], { coordinator: 'SettingsCoordinator' }))).refused;
    assert.equal(redirected.kind, 'redirected');
    assert.equal(redirected.status, 409);
    assert.equal(redirected.currentVersion, 4);
    assert.deepEqual(redirected.state.visible.path, ['authenticated', 'profile']);
    assert.equal(redirected.state.pendingRoute.route, 'admin');
    const stale = (await queue.send(intents.transition([steps.selectTab('todos')], { expectedVersion: 3 }))).refused;
    assert.equal(stale.kind, 'staleVersion');
    assert.equal(stale.status, 412);
    assert.equal(stale.currentVersion, 4);
    assert.equal(stale.state.version, 4);
    const unknown = (await queue.send(intents.transition([steps.selectTab('nowhere')]))).refused;
    assert.equal(unknown.kind, 'refused');
    assert.equal(unknown.code, 'unknownRoute');
    assert.equal((await queue.send(intents.transition([steps.selectTab('todos')]))).applied.version, 5);
    queue.stop();
  });

  test("a control's action taps through the queue, and the follower sees every state", async (t) => {
    const id = await server.loggedInSession();
    const seen = [];
    const connections = [];
    const follower = client.follow(id, { onState: (doc) => seen.push(doc.version), onConnection: (c) => connections.push(c.state) });
    const queue = client.intents(id);
    t.after(() => { follower.stop(); queue.stop(); });
    await until('the follower has the state', () => seen.length === 1);
    const doc = await client.getSession(id);
    const list = doc.visible.screen.content.find((element) => element.type === 'list');
    const row = list.rows.find((r) => r.action);
    const opened = (await queue.send(intents.ofAction(row.action))).applied;
    assert.equal(opened.visible.path.at(-1), 'todo');
    await until('the follower reaches the new version', () => follower.document?.version === opened.version);
    assert.deepEqual(seen, [2, 3]);
    assert.equal(connections[0], 'connecting');
    assert.ok(connections.includes('live'));
    // Deleted: the follower fails for good with the 404 problem, and stops.
    assert.equal((await server.request('DELETE', `/api/sessions/${id}`)).status, 204);
    await until('the follower fails', () => follower.connection.state === 'failed');
    assert.equal(follower.connection.problem.status, 404);
    queue.stop();
  });

  test('killed with kill -9 three times during 1,000 intents: each applied once, none lost, the follower ends on the final state', async (t) => {
    const id = await server.loggedInSession();
    const follower = client.follow(id);
    // Besides the kills, every 50th change's answer is lost on its way back (the server applied it): the retry
    // must be answered from the server's memory of its Idempotency-Key, not applied again.
    let posts = 0;
    let lost = 0;
    const lossy = new Switchyard({
      server: server.url,
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (init?.method === 'POST' && (posts += 1) % 50 === 0) {
          lost += 1;
          throw new TypeError('the answer was lost');
        }
        return response;
      },
    });
    const queue = lossy.intents(id, { storage: fileStorage(join(server.data, 'intents.json')) });
    t.after(() => { follower.stop(); queue.stop(); });
    const deliveries = [];
    const sent = [];
    for (let index = 0; index < 1000; index += 1) {
      const intent = pushOrPop(index);
      sent.push(intent);
      queue.send(intent).then((delivery) => deliveries.push(delivery));
    }
    for (const at of [250, 500, 750]) {
      await until(`${at} intents answered`, () => deliveries.length >= at, 60);
      await server.kill9();
      await new Promise((r) => { setTimeout(r, 200); });
      await server.start();
    }
    await queue.drained();
    assert.equal(deliveries.length, 1000);
    assert.deepEqual(deliveries.map((d) => d.intent.id), sent.map((i) => i.id), 'answered in the order sent');
    assert.ok(deliveries.every((d) => d.applied), 'every intent applied');
    assert.deepEqual(queue.pending, [], 'none left');
    const final = await client.getSession(id);
    assert.equal(final.version, 2 + 1000, 'one version per intent: no duplicate, none lost');
    // The history holds exactly the intents sent, in order (a duplicate or a loss would break the alternation).
    const entries = [];
    for (let after = 2; entries.length < 1000;) {
      const page = (await client.history(id, { after, limit: 1000 })).entries;
      if (!page.length) break;
      entries.push(...page);
      after = page.at(-1).version;
    }
    assert.deepEqual(entries.map((e) => e.request), sent.map((i) => i.body));
    await until('the follower ends on the final state', () => follower.document?.version === final.version, 30);
    const { result, ...expected } = final;
    assert.deepEqual(follower.document, expected);
    assert.ok(lost >= 20, `answers lost on the way: ${lost}`);
    t.diagnostic(`restarts: 3, answers lost: ${lost}, intents sent: 1000, acknowledged: ${deliveries.length}, ` +
      `duplicates: ${final.version - 2 - entries.length}, lost: ${1000 - entries.length}`);
  });

  test('offline for 10 s: intents wait in their file, outlive the queue, and are applied once when the server is back', async (t) => {
    const id = await server.loggedInSession();
    const file = join(server.data, `offline-${id}.json`);
    await server.kill9();
    const away = client.intents(id, { storage: fileStorage(file) });
    t.after(() => away.stop());
    let retries = 0;
    away.onRetry = () => { retries += 1; };
    for (let index = 0; index < 20; index += 1) away.send(pushOrPop(index)).catch(() => {}); // rejected at stop()
    await new Promise((r) => { setTimeout(r, 10_000); });
    away.stop();
    assert.ok(retries >= 3, `it kept trying (${retries} tries)`);
    assert.equal(JSON.parse(readFileSync(file, 'utf8')).length, 20, 'all 20 kept in the file');
    await server.start();
    const delivered = [];
    const back = client.intents(id, { storage: fileStorage(file), onDelivery: (d) => delivered.push(d) });
    t.after(() => back.stop());
    await until('the 20 kept intents are answered', () => delivered.length === 20);
    assert.ok(delivered.every((d) => d.applied));
    assert.equal((await client.getSession(id)).version, 2 + 20, 'each applied once');
    const entries = (await client.history(id, { after: 2, limit: 100 })).entries;
    assert.deepEqual(entries.map((e) => e.request.steps[0].action), Array.from({ length: 20 }, (_, i) => (i % 2 ? 'pop' : 'push')));
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), [], 'the file is empty');
    back.stop();
  });
});
