// `pnpm demo rwlock`: three readers hold the read lock of one ReadWriteLock at the same time, and
// a writer that asks meanwhile gets the write lock only once the last of them is done. Both
// halves are measured: how many read at once, and how many were still reading when the writer
// got in.
import { ReadWriteLock } from '@deadbolt/rwlock';
import { sleep, stamp, type Section } from './section.js';

const READERS = 3;
const READ_TIME = 200;

export const rwlockSection: Section = {
  name: 'rwlock',
  kind: 'ReadWriteLock',
  about: `${READERS} readers overlap; a writer waits until the last one is done`,
  async run(context) {
    const { locks } = await context.shared();
    const catalog = new ReadWriteLock(locks, 'demo:catalog');
    const started = performance.now();
    const log = (event: string) => console.log(`  ${stamp(started)}  ${event}`);
    console.log(
      `Read-write lock "${catalog.name}": ${READERS} readers overlap; a writer waits until the last one is done`,
    );
    let reading = 0;
    let mostAtOnce = 0;
    let readingWhenWritten = -1;
    const readers = Array.from({ length: READERS }, (_, i) =>
      catalog.readLock().withLock(async () => {
        mostAtOnce = Math.max(mostAtOnce, ++reading);
        log(`reader${i + 1} reading  (${reading} reading at once)`);
        // Staggered, so that the writer's wait visibly ends with the last reader, not the first.
        await sleep(READ_TIME * (i + 1));
        reading--;
        log(`reader${i + 1} done`);
      }),
    );
    await sleep(READ_TIME / 2);
    log('writer asks for the write lock');
    const asked = performance.now();
    let waited = 0;
    const writer = catalog.writeLock().withLock(() => {
      readingWhenWritten = reading;
      waited = performance.now() - asked;
      log(`writer writing  (${reading} reading, waited ${waited.toFixed(0)} ms)`);
    });
    await Promise.all([...readers, writer]);
    const ok = mostAtOnce === READERS && readingWhenWritten === 0;
    return {
      kind: 'ReadWriteLock',
      ok,
      text: ok
        ? `${mostAtOnce} readers at once; the writer waited ${waited.toFixed(0)} ms, until the last one was done`
        : `${mostAtOnce} of ${READERS} readers at once; ${readingWhenWritten} still reading when the writer got in`,
    };
  },
};
