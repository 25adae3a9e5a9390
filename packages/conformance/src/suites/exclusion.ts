import { expect, it } from 'vitest';
import { runContenders } from '../child/runContenders.js';
import type { SuiteContext } from '../SuiteContext.js';
import { sleep } from '../timing.js';

/** Mutual exclusion: between tasks sharing a handle, and between processes. */
export function exclusionSuite(ctx: SuiteContext): void {
  it('concurrent tasks sharing one handle never hold it together', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'shared-handle');
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, () =>
        lock.withLock(async () => {
          most = Math.max(most, ++inside);
          await sleep(1);
          inside--;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(await lock.isLocked()).toBe(false);
  });

  it('several processes with many tasks each keep a non-atomic Redis counter exact', async () => {
    const backend = ctx.backend();
    const lockName = ctx.uniqueName('processes');
    const counterKey = `${lockName}:counter`;
    const processes = 3;
    const tasks = 5;
    const iterations = 20;
    const holds = await runContenders({
      spec: backend.spec,
      subject: ctx.subject,
      lockName,
      counterKey,
      processes,
      tasks,
      iterations,
    });
    const expected = processes * tasks * iterations;
    expect(holds.reduce((sum, n) => sum + n, 0)).toBe(expected);
    expect(Number(await backend.command(['GET', counterKey], counterKey))).toBe(expected);
  }, 90_000);
}
