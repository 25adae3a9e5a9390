// `pnpm demo fenced`: why a lease alone is not enough, and what a fencing token adds. Holder A
// takes a FencedLock with a short lease and then stalls (a long GC pause, a stopped process: here
// a sleep that ignores the lock's signal). Its lease runs out, B takes the lock with a higher
// token and writes. When A wakes up it writes as if it still held the lock; the storage, which
// remembers the highest token it accepted, refuses it. The storage is the one the examples use.
import { FencedLock } from '@deadbolt/fenced-lock';
import { FencedStorage } from '../../examples/src/FencedStorage.js';
import { sleep, stamp, type Section } from './section.js';

const LEASE = 200;
const PAUSE = 600;
const RESOURCE = 'demo:balance';

export const fencedSection: Section = {
  name: 'fenced',
  kind: 'FencedLock',
  about: 'a holder whose lease ran out while it was paused writes with its old token, and is refused',
  async run(context) {
    const { redis, executor, locks } = await context.shared();
    // FencedStorage's keys for the resource: start from an empty storage on a reused REDIS_URL.
    await redis.del(`storage:{${RESOURCE}}`, `storage:{${RESOURCE}}:fence`);
    const storage = new FencedStorage(executor);
    const lock = new FencedLock(locks, 'demo:ledger');
    const started = performance.now();
    const log = (event: string) => console.log(`  ${stamp(started)}  ${event}`);
    const write = async (who: string, token: bigint, value: string) => {
      const accepted = await storage.write(RESOURCE, value, token);
      log(`${who} writes "${value}" with token ${token}: ${accepted ? 'accepted' : 'REFUSED'}`);
      return accepted;
    };
    console.log(`Fenced lock "${lock.name}": A's lease (${LEASE} ms) runs out while A is paused for ${PAUSE} ms`);

    const a = await lock.acquire({ leaseTime: LEASE });
    log(`A holds the lock, token ${a.token}`);
    const aFirst = await write('A', a.token, '100 from A');
    log(`A pauses for ${PAUSE} ms`);
    const paused = sleep(PAUSE);

    // B asks meanwhile and gets the lock as soon as A's lease has run out.
    const b = await lock.acquire({ waitTime: 5_000 });
    log(`B holds the lock, token ${b.token} (A's lease ran out)`);
    const bWrite = await write('B', b.token, '90 from B');

    await paused;
    log(`A wakes up; its lock signal aborted: ${a.signal.aborted}`);
    const aStale = await write('A', a.token, '120 from A');
    const balance = await storage.read(RESOURCE);
    log(`balance: ${balance}`);
    await b.release();
    await a.release().catch((error: Error) => log(`A's release: ${error.name} (B held the lock after it)`));

    const ok = aFirst && bWrite && !aStale && a.token < b.token && balance === '90 from B';
    return {
      kind: 'FencedLock',
      ok,
      text: ok
        ? `stale write refused (token ${a.token} < ${b.token})`
        : `stale write with token ${a.token} ${aStale ? 'accepted' : 'refused'}; B (token ${b.token}) ${bWrite ? 'wrote' : 'was refused'}`,
    };
  },
};
