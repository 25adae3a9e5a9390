// RedLock: one lock held by a majority of independent Redis servers, so that it outlives a
// minority of them crashing or restarting empty.
//
//   REDIS_URLS=redis://host-a:6379,redis://host-b:6379,redis://host-c:6379 npx tsx redlock.ts
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { RedLock } from '@deadbolt/redlock';

// Three databases of one local server only to try it out: in production, independent servers.
const urls = (
  process.env.REDIS_URLS ?? 'redis://localhost:6379/1,redis://localhost:6379/2,redis://localhost:6379/3'
).split(',');
const servers = urls.map((url) => new Redis(url));
// A short watchdog so that the example is quick: leases of 1.5 s, renewed every 0.5 s.
const clients = servers.map((redis) => new LockClient(ioredisExecutor(redis), { watchdogTimeout: 1_500 }));

// One client per independent Redis server; the same lock name on each.
const job = new RedLock(clients.map((client) => client.lock('nightly-report')));

const held = await job.tryAcquire({ leaseTime: 10_000 });
if (held) {
  try {
    console.log(`held by at least ${job.quorum} of ${clients.length} servers, valid for ${held.validity} ms`);
  } finally {
    await held.release();
  }
}

// withLock as with any lock; the signal aborts when fewer than a quorum still hold it.
const pages = await job.withLock(async (signal) => {
  console.log(`rendering, lost: ${signal.aborted}`);
  return 12;
});
console.log(`released; the report has ${pages} pages`);

// Another RedLock on the same name tries in rounds, retryDelay ± retryJitter apart, until its
// waitTime runs out; a server that does not answer within nodeTimeout fails its part of a round.
const rival = new RedLock(
  clients.map((client) => client.lock('nightly-report')),
  {
    nodeTimeout: 200,
    retryDelay: 100,
    retryJitter: 50,
  },
);
const hold = await job.acquire();
const attempt = await rival.tryAcquire({ waitTime: 500 });
console.log(`the rival while the job holds it: ${attempt === null ? 'null' : 'acquired'}`);

// Each member is renewed by its own client's watchdog. Losing the lock on a minority of the
// servers (here a DEL, as a restart without its data would) leaves it held; on a majority, lost.
await servers[0]?.del('nightly-report');
await once(clients[0]!, 'lockLost');
console.log(`gone from 1 of 3 servers, lost: ${hold.signal.aborted}`);
await servers[1]?.del('nightly-report');
await once(clients[1]!, 'lockLost');
console.log(`gone from 2 of 3 servers, lost: ${hold.signal.aborted} (${(hold.signal.reason as Error).name})`);
await hold.release().catch((error: Error) => console.log(`release: ${error.name}`));

await Promise.all(clients.map((client) => client.close()));
await Promise.all(servers.map((redis) => redis.quit()));
