// The read-write lock: readers share it, a writer has it alone; a writer may downgrade to a
// reader, a reader may not upgrade.
//
//   REDIS_URL=redis://localhost:6379 npx tsx read-write-lock.ts
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { LockUpgradeError, ReadWriteLock } from '@deadbolt/rwlock';

const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
const locks = new LockClient(ioredisExecutor(redis));

const catalog = new ReadWriteLock(locks, 'catalog');

// Any number of readers at once, in any number of processes.
const readers = await Promise.all([catalog.readLock().acquire(), catalog.readLock().acquire()]);
console.log(`${readers.length} readers hold the read lock together`);

// A writer waits until every reader has left.
const writing = catalog.writeLock().withLock(async () => {
  console.log('the writer updates the catalog alone');
});
await sleep(200);
console.log('the readers leave');
for (const reader of readers) await reader.release();
await writing;

// Downgrade: the writer may take the read lock too, and keeps it when it releases the write lock.
const write = await catalog.writeLock().acquire({ owner: 'importer' });
const read = await catalog.readLock().acquire({ owner: 'importer' });
await write.release();
const other = await catalog.readLock().tryAcquire();
console.log(`after the downgrade another reader gets in: ${other !== null}`);
await other?.release();

// No upgrade: a reader asking for the write lock would wait for itself, so it fails at once.
try {
  await catalog.writeLock().acquire({ owner: 'importer' });
} catch (error) {
  if (!(error instanceof LockUpgradeError)) throw error;
  console.log(`upgrade refused: ${error.name}`);
}
await read.release();

await locks.close();
await redis.quit();
