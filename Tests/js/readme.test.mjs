// The JavaScript quick start (README.md and docs/clients.md, each block marked `<!-- js-sample: quick-start -->`),
// run as written against the real server: only the module's path and the server's address are put in.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ServerProcess } from './server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const moduleURL = pathToFileURL(join(root, 'Public/js/switchyard-client.js')).href;

/** The marked samples of `file`. */
function samples(file) {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/<!-- js-sample: quick-start -->\n```js\n([\s\S]*?)```/g)].map((m) => m[1]);
}

let server;
before(async () => {
  server = await ServerProcess.create();
  await server.start();
});
after(async () => { await server?.cleanup(); });

for (const file of ['README.md', 'docs/clients.md']) {
  test(`the quick start in ${file} runs`, async () => {
    const found = samples(file);
    assert.equal(found.length, 1, `one marked sample in ${file}`);
    const code = found[0].replace("'./switchyard-client.js'", `'${moduleURL}'`)
      .replace("'http://127.0.0.1:8080'", `'${server.url}'`);
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    // The follower keeps the program running: it is stopped once it printed what the sample shows.
    const deadline = Date.now() + 15_000;
    while (!/1 refused cannotGoBack/.test(output) || !/^1 unauthenticated\/login$/m.test(output)) {
      assert.ok(Date.now() < deadline && child.exitCode === null, `the sample printed:\n${output}`);
      await new Promise((r) => { setTimeout(r, 50); });
    }
    child.kill();
    // The states the follower printed, in order. The first is the session as the stream found it: version 0, or
    // already version 1 when the event was applied before the stream opened (both are right: the follower shows the
    // session as it is, not every version).
    const states = output.split('\n').filter((line) => /^\d+ [a-z]/.test(line) && !/ refused /.test(line));
    assert.ok(['0 onboarding/welcome,1 unauthenticated/login', '1 unauthenticated/login'].includes(states.join(',')),
      `the states printed:\n${output}`);
    assert.match(output, /^live$/m);
  });
}
