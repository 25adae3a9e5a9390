import type { SuiteContext } from '@deadbolt/conformance';
import { fairLockKeys } from '@deadbolt/fair-lock';

/** What a fair lock's queue holds, read straight from Redis. */
export function queueState(ctx: SuiteContext, name: string) {
  const keys = fairLockKeys(name);
  const command = (args: (string | number)[]) => ctx.backend().command(args, keys.queue);
  return {
    keys,
    /** The waiting owner fields, head first. */
    waiters: async () => (await command(['LRANGE', keys.queue, 0, -1])) as string[],
    length: async () => Number(await command(['LLEN', keys.queue])),
    /** A waiter's deadline (wall-clock ms), `null` when it has none. */
    deadline: async (field: string) => {
      const score = await command(['ZSCORE', keys.timeouts, field]);
      return score === null ? null : Number(score);
    },
    /** How many of the queue and deadline keys exist (0 once everyone is done). */
    keysLeft: async () => Number(await command(['EXISTS', keys.queue, keys.timeouts])),
  };
}
