// Operations: what the `deadbolt` command shows, from a script of your own through @deadbolt/cli's
// programmatic API. A worker holds a lock and dies without releasing it (here: it just never
// does); the script lists the locks, reads the stuck one and force-unlocks it.
//
//   REDIS_URL=redis://localhost:6379 npx tsx operations.ts
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { connect, forceUnlock, inspectLock, listLocks } from '@deadbolt/cli';

const url = process.env.REDIS_URL ?? 'redis://localhost:6379';
const redis = new Redis(url);
const locks = new LockClient(ioredisExecutor(redis), { clientId: 'billing-worker' });
await locks.lock('invoices:2026-11').acquire({ owner: 'run-7' });

const connection = await connect(url);
try {
  for (const lock of await listLocks(connection, { pattern: 'invoices:*' })) {
    const holders = lock.holders.map(
      (holder) => `client ${holder.clientId}, owner ${holder.ownerId}, ${holder.holds} hold(s)`,
    );
    console.log(`${lock.name} (${lock.kind}) held by ${holders.join('; ')}`);
  }
  const stuck = await inspectLock(connection, 'invoices:2026-11');
  if (stuck?.held) console.log(`force-unlocked: ${await forceUnlock(connection, stuck)}`);
} finally {
  await connection.close();
}

console.log(`locked afterwards: ${await locks.lock('invoices:2026-11').isLocked()}`);
await locks.close();
await redis.quit();
