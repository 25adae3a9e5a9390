// Never more holders than permits (issue 18): tasks on two clients take 1 or 2 permits of a
// semaphore of 3, over and over, on both adapters, standalone and cluster. Every hold's interval is
// kept, and the permits held at any moment are summed from that history afterwards.
import { BACKENDS, sleep, useBackendContext } from '@deadbolt/conformance';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../src/index.js';
import { mostHeldAtOnce, type Hold } from './holds.js';

const PERMITS = 3;

describe.each(BACKENDS)('Semaphore hammer on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  it(`8 tasks on 2 clients never hold more than ${PERMITS} permits, and all come back`, async () => {
    const clients = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('hammer');
    await new Semaphore(clients[0]!, name).trySetPermits(PERMITS);
    const holds: Hold[] = [];
    let running = true;
    let fewestSeen = PERMITS;
    const sampler = (async () => {
      const reader = new Semaphore(clients[1]!, name);
      while (running) {
        fewestSeen = Math.min(fewestSeen, await reader.availablePermits());
        await sleep(2);
      }
    })();
    await Promise.all(
      Array.from({ length: 8 }, async (_, task) => {
        const semaphore = new Semaphore(clients[task % 2]!, name);
        const permits = 1 + (task % 3 === 0 ? 1 : 0);
        for (let round = 0; round < 6; round++) {
          const held = await semaphore.acquire(permits, { waitTime: 20_000 });
          const from = performance.now();
          await sleep(3);
          holds.push({ from, to: performance.now(), permits });
          await held.release();
        }
      }),
    );
    running = false;
    await sampler;
    expect(holds).toHaveLength(48);
    expect(mostHeldAtOnce(holds)).toBeLessThanOrEqual(PERMITS);
    expect(fewestSeen).toBeGreaterThanOrEqual(0);
    expect(await new Semaphore(clients[0]!, name).availablePermits()).toBe(PERMITS);
    expect(clients.map((client) => client.activity().channels)).toEqual([[], []]);
  });
});
