// The page's release panel (Public/js/replay-panel.js) against the real server: the versions it offers, a replay of
// the stored sessions on one, and the report's summary as the panel shows it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { admin, replayCandidates, replaySummary } from '../../Public/js/replay-panel.js';
import { ServerProcess } from './server.mjs';

const token = 'page-replay-token-0123456789';
let server;

before(async () => {
  process.env.SWITCHYARD_ADMIN_TOKEN = token;
  server = await (await ServerProcess.create()).start();
  delete process.env.SWITCHYARD_ADMIN_TOKEN;
});
after(async () => { await server?.cleanup(); });

test('the panel offers the served versions and shows a replay of the stored sessions', async () => {
  await server.loggedInSession();
  await server.loggedInSession();
  const candidates = replayCandidates(await admin(token, 'GET', '/api/admin/apps', undefined, server.url));
  const todo = candidates.find((c) => c.app === 'todo');
  assert.deepEqual(todo, { app: 'todo', version: 1, label: 'todo@1 · configured · weight 100' });

  const path = `/api/admin/apps/todo/versions/${todo.version}/replay`;
  await assert.rejects(admin(token, 'GET', path, undefined, server.url), (error) => error.problem.code === 'noReplayYet');
  const report = await admin(token, 'POST', path, {}, server.url);
  assert.equal(report.replayed, 2);
  assert.match(replaySummary(report), /^2 replayed: 2 clean, 0 diverged · 4 requests, \d+ requests\/s$/);
  assert.deepEqual(await admin(token, 'GET', path, undefined, server.url), report);
  await assert.rejects(admin('wrong-token-0123456789', 'POST', path, {}, server.url), (error) => error.problem.status === 401);
});

test('a report of divergences lists its reasons, and what the bounds cut', () => {
  const report = {
    replayed: 6, clean: 4, diverged: 2, requests: 15, requestsPerSecond: 491.6, stopped: 'the time limit (5 s) was up',
    groups: [{ reason: "route 'giftWrap' was removed", sessions: 2, example: '4f5a' }],
  };
  assert.equal(replaySummary(report),
    '6 replayed: 4 clean, 2 diverged · 15 requests, 492 requests/s · stopped: the time limit (5 s) was up');
});
