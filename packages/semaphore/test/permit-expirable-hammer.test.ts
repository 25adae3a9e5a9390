// Never more holders than permits (issue 18): tasks on two clients take 1 or 2 permits of a
// permit-expirable semaphore of 3, some under a lease and some kept by the watchdog, and hand
// some back by id from the other client, over and over, on both adapters, standalone and cluster.
// Every hold's interval is kept, and the permits held at any moment are summed afterwards.
import { BACKENDS, sleep, useBackendContext } from '@deadbolt/conformance';
import { describe, expect, it } from 'vitest';
import { PermitExpirableSemaphore } from '../src/index.js';
import { mostHeldAtOnce, type Hold } from './holds.js';

const PERMITS = 3;
const TASKS = 8;
const ROUNDS = 6;
// Long enough never to end during a hold: the hammer is about exclusion, not expiry.
const LEASE = 60_000;

describe.each(BACKENDS)('PermitExpirableSemaphore hammer on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  it(`${TASKS} tasks on 2 clients never hold more than ${PERMITS} permits, and all come back`, async () => {
    const clients = [await ctx.client({ watchdogTimeout: 300 }), await ctx.client({ watchdogTimeout: 300 })];
    const name = ctx.uniqueName('hammer');
    const semaphores = clients.map((client) => new PermitExpirableSemaphore(client, name));
    await semaphores[0]!.trySetPermits(PERMITS);
    const holds: Hold[] = [];
    await Promise.all(
      Array.from({ length: TASKS }, async (_, task) => {
        const [mine, other] = [semaphores[task % 2]!, semaphores[(task + 1) % 2]!];
        const permits = 1 + (task % 3 === 0 ? 1 : 0);
        for (let round = 0; round < ROUNDS; round++) {
          const held = await mine.acquire(permits, {
            waitTime: 20_000,
            ...(task % 2 === 0 ? { leaseTime: LEASE } : {}),
          });
          const from = performance.now();
          await sleep(3);
          holds.push({ from, to: performance.now(), permits });
          if (round % 2 === 0) {
            await held.release();
          } else {
            // Handed to the other client by id, as between processes; the hold here just stops.
            await Promise.all(held.ids.map((id) => other.release(id)));
            await held.release().catch(() => undefined);
          }
        }
      }),
    );
    expect(holds).toHaveLength(TASKS * ROUNDS);
    expect(mostHeldAtOnce(holds)).toBeLessThanOrEqual(PERMITS);
    expect(await semaphores[0]!.availablePermits()).toBe(PERMITS);
    expect(await ctx.backend().command(['ZCARD', semaphores[0]!.timeoutsKey], name)).toBe(0);
    expect(clients.map((client) => client.activity().channels)).toEqual([[], []]);
  });
});
