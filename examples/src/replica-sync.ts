// Replica sync: every acquisition and release waits until a replica has it, so that a failover to
// that replica cannot hand out a lock that is held, nor a fencing token twice. Needs a master
// (REDIS_URL) and a replica of it (REDIS_REPLICA_URL, read here only to show what it has).
//
//   REDIS_URL=redis://master:6379 REDIS_REPLICA_URL=redis://replica:6379 npx tsx replica-sync.ts
import { Redis } from 'ioredis';
import { LockClient, ReplicaSyncError } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { FencedLock } from '@deadbolt/fenced-lock';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const replica = new Redis(process.env.REDIS_REPLICA_URL ?? 'redis://localhost:6380');

// WAIT blocks the connection it runs on: the locks get a connection of their own, so that the
// application's other commands on `redis` never queue behind it.
const lockConnection = redis.duplicate();
const locks = new LockClient(ioredisExecutor(lockConnection), {
  replicaSync: { replicas: 1, timeout: 500 },
});

const ledger = new FencedLock(locks, 'ledger');
await ledger.withLock(async (_signal, held) => {
  // acquire returned once the replica acknowledged: it has the lock and the token counter.
  const onReplica = await replica.exists('ledger');
  console.log(
    `token ${held.token}; on the replica: lock ${onReplica === 1}, counter ${await replica.get(ledger.tokenKey)}`,
  );
});
// The release returned once the replica acknowledged it too.
console.log(`after the release, on the replica: lock ${(await replica.exists('ledger')) === 1}`);

// More replicas required than there are: the acquisition gives the lock back, then fails.
const strict = new LockClient(ioredisExecutor(redis), { replicaSync: { replicas: 2, timeout: 200 } });
try {
  await strict.lock('invoice:7').acquire();
} catch (error) {
  if (!(error instanceof ReplicaSyncError)) throw error;
  console.log(`${error.operation}: ${error.acknowledged} of ${error.required} replicas acknowledged`);
  console.log(`locked after the failed acquisition: ${await strict.lock('invoice:7').isLocked()}`);
}

await Promise.all([locks.close(), strict.close()]);
await Promise.all([lockConnection.quit(), redis.quit(), replica.quit()]);
