// `pnpm demo fair`: while a lock is held, waiters in three processes ask for it one after another,
// once for the plain Lock and once for the FairLock, and the order each granted it in is printed
// under the order of arrival. The plain lock hands over to whoever retries first; the fair lock
// keeps a queue, so it must grant in arrival order.
import { FairLock } from '@deadbolt/fair-lock';
import { runWorker, sleep, type Section } from './section.js';

const QUEUERS = 3;
const WAITERS = 12;
const ARRIVAL_GAP = 40;
const KINDS = ['Lock', 'FairLock'] as const;

export const fairSection: Section = {
  name: 'fair',
  kind: 'FairLock',
  about: `${WAITERS} waiters in ${QUEUERS} processes: the plain lock's grant order next to the fair lock's`,
  async run(context) {
    const { url, redis, locks } = await context.shared();
    await redis.del(...KINDS.flatMap((kind) => [`demo:order:${kind}`, `demo:ready:${kind}`, `demo:go:${kind}`]));
    console.log(
      `Handoff order: ${WAITERS} waiters in ${QUEUERS} processes ask ${ARRIVAL_GAP} ms apart while the lock is held`,
    );
    const arrival = Array.from({ length: WAITERS }, (_, i) => `w${i}`);
    console.log(`  arrival   ${arrival.join(' ')}`);
    const inOrder = new Map<string, boolean>();
    for (const kind of KINDS) {
      const name = `demo:order-lock:${kind}`;
      const held = await (kind === 'FairLock' ? new FairLock(locks, name) : locks.lock(name)).acquire();
      // Waiter w<i> runs in process i % QUEUERS and asks at startAt + i * ARRIVAL_GAP, once every
      // process is ready (starting one takes a while on a busy machine).
      const schedule = (p: number) =>
        arrival.flatMap((label, i) => (i % QUEUERS === p ? [`${label}@${i * ARRIVAL_GAP}`] : []));
      const queued = Array.from({ length: QUEUERS }, (_, p) => runWorker(['queue', url, kind, ...schedule(p)]));
      const signals = redis.duplicate();
      for (let p = 0; p < QUEUERS; p++) await signals.blpop(`demo:ready:${kind}`, 0);
      signals.disconnect();
      const startAt = Date.now() + 100;
      await redis.rpush(`demo:go:${kind}`, ...Array.from({ length: QUEUERS }, () => String(startAt)));
      await sleep(startAt + WAITERS * ARRIVAL_GAP + 200 - Date.now());
      await held.release();
      await Promise.all(queued);
      const granted = await redis.lrange(`demo:order:${kind}`, 0, -1);
      inOrder.set(kind, granted.join(' ') === arrival.join(' '));
      console.log(
        `  ${kind.padEnd(9)} ${granted.join(' ')}  (${inOrder.get(kind) ? 'arrival order' : 'not arrival order'})`,
      );
    }
    // The plain lock may happen to grant in order too; only the fair lock promises it.
    const plain = inOrder.get('Lock') ? 'the plain Lock happened to as well' : 'the plain Lock did not';
    return {
      kind: 'FairLock',
      ok: inOrder.get('FairLock') === true,
      text: inOrder.get('FairLock')
        ? `granted ${WAITERS} waiters in arrival order (${plain})`
        : `did not grant in arrival order`,
    };
  },
};
