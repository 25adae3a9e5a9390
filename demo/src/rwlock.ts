// The read-write lock section of the demo: three readers hold the read lock of one
// ReadWriteLock at the same time, and a writer that asks meanwhile gets the write lock only once
// the last of them is done.
import type { LockClient } from '@deadbolt/core';
import { ReadWriteLock } from '@deadbolt/rwlock';

const READERS = 3;
const READ_TIME = 200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the section on `locks`, printing a timeline. */
export async function readWriteDemo(locks: LockClient): Promise<void> {
  const catalog = new ReadWriteLock(locks, 'demo:catalog');
  const started = performance.now();
  const log = (event: string) => console.log(`  ${(performance.now() - started).toFixed(0).padStart(5)} ms  ${event}`);
  console.log(`\nRead-write lock "${catalog.name}": ${READERS} readers overlap; a writer waits until the last one is done`);
  let reading = 0;
  const readers = Array.from({ length: READERS }, (_, i) =>
    catalog.readLock().withLock(async () => {
      log(`reader${i + 1} reading  (${++reading} reading at once)`);
      await sleep(READ_TIME * (i + 1));
      reading--;
      log(`reader${i + 1} done`);
    }),
  );
  await sleep(READ_TIME / 2);
  log('writer asks for the write lock');
  const asked = performance.now();
  const writer = catalog.writeLock().withLock(() => {
    log(`writer writing  (${reading} reading, waited ${(performance.now() - asked).toFixed(0)} ms)`);
  });
  await Promise.all([...readers, writer]);
}
