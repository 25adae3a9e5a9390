// `pnpm demo multilock`: a MultiLock holds several locks all-or-nothing. First, while one of its
// locks is held elsewhere, an attempt takes none of them (alice's account is not left locked by
// a transfer that could not get bob's). Then two MultiLocks over the same two locks in opposite
// orders, the classic recipe for a deadlock, run side by side: every hold must finish, and no
// two may overlap.
import { MultiLock } from '@deadbolt/multilock';
import { sleep, stamp, type Section } from './section.js';

const ROUNDS = 5;

export const multilockSection: Section = {
  name: 'multilock',
  kind: 'MultiLock',
  about: 'two locks all-or-nothing; two MultiLocks taking them in opposite orders never deadlock',
  async run(context) {
    const { locks } = await context.shared();
    const alice = locks.lock('demo:account:alice');
    const bob = locks.lock('demo:account:bob');
    const transfer = new MultiLock([alice, bob]);
    const refund = new MultiLock([bob, alice]);
    const started = performance.now();
    const log = (event: string) => console.log(`  ${stamp(started)}  ${event}`);
    console.log(`MultiLock over "${alice.name}" and "${bob.name}"`);

    // All or nothing.
    const elsewhere = await bob.acquire();
    log('bob is held elsewhere; the transfer tries for both accounts');
    const attempt = await transfer.tryAcquire();
    const aliceLeftLocked = await alice.isLocked();
    log(`transfer got: ${attempt ? 'both' : 'nothing'}; alice locked: ${aliceLeftLocked}`);
    await attempt?.release();
    await elsewhere.release();

    // Opposite orders, side by side: count how many hold at once, and whether all finish.
    log(`transfer (alice, bob) and refund (bob, alice) each take both ${ROUNDS} times, side by side`);
    let holding = 0;
    let mostAtOnce = 0;
    let finished = 0;
    const rounds = (group: MultiLock, label: string) =>
      (async () => {
        for (let round = 1; round <= ROUNDS; round++) {
          await group.withLock(
            async (_signal, held) => {
              mostAtOnce = Math.max(mostAtOnce, ++holding);
              log(
                `${label.padEnd(8)} round ${round}: holds ${held.members.map((member) => member.name.split(':').pop()).join(' + ')}`,
              );
              await sleep(10);
              holding--;
              finished++;
            },
            { waitTime: 10_000 },
          );
          // Some work between rounds, as a real caller has, lets the other side in.
          await sleep(10);
        }
      })();
    await Promise.all([rounds(transfer, 'transfer'), rounds(refund, 'refund')]);

    const allOrNothing = attempt === null && !aliceLeftLocked;
    const ok = allOrNothing && finished === 2 * ROUNDS && mostAtOnce === 1;
    return {
      kind: 'MultiLock',
      ok,
      text: ok
        ? `all or nothing (alice stayed free while bob was held elsewhere); ${finished} holds in opposite orders, one at a time, no deadlock`
        : `all or nothing: ${allOrNothing}; ${finished} of ${2 * ROUNDS} holds finished, up to ${mostAtOnce} at once`,
    };
  },
};
