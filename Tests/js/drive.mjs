// Drives one session with the JavaScript client for Tests/cluster/test_clients.py: sends COUNT intents (a push, then
// a pop, …) through an intent queue kept in FILE, follows the session meanwhile, and once every intent is answered
// and the follower holds the server's final version prints one JSON line: {"acknowledged", "refused" (each
// {"index", "status", "code"}), "followed", "final"}.
//   node Tests/js/drive.mjs SERVER-URL SESSION COUNT FILE
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Switchyard, intents, steps } from '../../Public/js/switchyard-client.js';

const [server, session, count, file] = process.argv.slice(2);
const storage = {
  load: () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []),
  save: (list) => { writeFileSync(`${file}.new`, JSON.stringify(list)); renameSync(`${file}.new`, file); },
};
const client = new Switchyard({ server });
const follower = client.follow(session);
const queue = client.intents(session, { storage });
let acknowledged = 0;
const refused = [];
for (let index = 0; index < Number(count); index += 1) {
  const step = index % 2 === 0 ? steps.push('todo', 'buy-milk') : steps.pop();
  queue.send(intents.transition([step], { coordinator: 'TodosCoordinator' })).then((delivery) => {
    if (delivery.applied) acknowledged += 1;
    else refused.push({ index, status: delivery.refused.status, code: delivery.refused.code });
  });
}
await queue.drained();
// The final version, read until a node answers it (one may be down).
let final = null;
while (final === null) {
  final = await client.getSession(session).then((doc) => doc.version, () => null);
  if (final === null) await new Promise((r) => { setTimeout(r, 200); });
}
const deadline = Date.now() + 60_000;
while ((follower.document?.version ?? -1) < final && Date.now() < deadline) await new Promise((r) => { setTimeout(r, 50); });
follower.stop();
queue.stop();
console.log(JSON.stringify({ acknowledged, refused, followed: follower.document?.version ?? null, final }));
