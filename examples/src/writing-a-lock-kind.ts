// Writing a lock kind: NotedLock (NotedLock.ts, next to this file) is the reentrant lock whose
// holder leaves a note for operators. Here it runs as an application would use it, next to a plain
// Lock and a Redisson client on the same name (the Java side played by raw commands).
//
//   REDIS_URL=redis://localhost:6379 npx tsx writing-a-lock-kind.ts
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { isLock } from '@deadbolt/core/kit';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { NotedLock } from './NotedLock.js';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
// A 1 s watchdog lease, so that the note can be seen to outlive a few of them.
const locks = new LockClient(ioredisExecutor(redis), { watchdogTimeout: 1_000 });

const importer = new NotedLock(locks, 'nightly-import'); // note: `<hostname> pid <pid>`

const held = await importer.acquire();
// Anyone can ask who holds it and why: another service, an admin endpoint, redis-cli.
const holder = await importer.holder();
console.log(`holder is this hold's owner: ${holder?.owner === held.owner}, note: ${holder?.note}`);
console.log(`hash: ${JSON.stringify(await redis.hgetall('nightly-import'))}`);

// Everything else is the plain Lock's: re-entry, queries in Redisson's layout, exclusion.
const again = await importer.acquire({ owner: held.owner });
console.log(`hold count: ${await importer.holdCount(held.owner)}, note: ${(await importer.holder())?.note}`);
await again.release();
const rival = new NotedLock(locks, 'nightly-import', 'a rival');
const noted = await rival.tryAcquire();
const plain = await locks.lock('nightly-import').tryAcquire();
console.log(
  `another NotedLock: ${noted === null ? 'null' : 'acquired'}, a plain Lock: ${plain === null ? 'null' : 'acquired'}`,
);

// The watchdog renews the whole hash: the note lives as long as the lock.
await sleep(2_500);
console.log(
  `after 2.5 watchdog leases: locked ${await importer.isLocked()}, note kept: ${(await importer.holder())?.note === importer.note}`,
);
await held.release();

// The last release deletes the hash, note and all.
console.log(
  `after the release: locked ${await importer.isLocked()}, holder ${(await importer.holder()) === null ? 'null' : 'someone'}, keys left ${await redis.exists('nightly-import', 'deadbolt_holds:{nightly-import}')}`,
);

// A Java service holds RLock "nightly-import" (what Redisson writes): excluded, and shown without a note.
await redis.multi().hset('nightly-import', `${randomUUID()}:57`, 1).pexpire('nightly-import', 30_000).exec();
const java = await importer.holder();
console.log(
  `while Redisson holds it: tryAcquire ${(await importer.tryAcquire()) === null ? 'null' : 'acquired'}, holder thread ${java?.owner}, note ${java?.note}`,
);
await redis.del('nightly-import');

// Locks are recognised by their brand, so a MultiLock takes a NotedLock as a member.
console.log(`isLock: ${isLock(importer)}`);

await locks.close();
await redis.quit();
