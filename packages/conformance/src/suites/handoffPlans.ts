import type { HeldLock, LockClient } from '@deadbolt/core';
import fc from 'fast-check';
import type { ConformantLock } from '../kinds/index.js';
import { sleep } from '../timing.js';

/** One acquisition of a task: how long it holds, whether it re-enters meanwhile, whether it gives up waiting. */
export interface PlannedAcquisition {
  readonly holdMs: number;
  /** A fixed lease (far longer than the hold), or `undefined` for the watchdog's. */
  readonly leaseTime: number | undefined;
  /** Takes the lock a second time as the same owner while holding it, and releases both. */
  readonly reenter: boolean;
  /** Aborts the wait this long after asking; `undefined` to wait as long as it takes. */
  readonly abortAfterMs: number | undefined;
}

/** One task: its client, its owner (generated per acquisition, or a name it keeps), its acquisitions in turn. */
export interface PlannedTask {
  readonly client: number;
  readonly owner: string | undefined;
  readonly acquisitions: readonly PlannedAcquisition[];
}

/** What a plan's run saw. */
export interface PlanOutcome {
  /** Times a task entered while a task of another owner was inside. */
  readonly overlaps: number;
  /** Acquisitions that got the lock. */
  readonly acquired: number;
  /** Re-entries whose hold count was not 2 right after. */
  readonly wrongCounts: number;
}

/**
 * Random plans of tasks on `clients` clients taking one lock concurrently, for the local hand-off
 * suite: generated and named owners (tasks that share a name on one client share an owner, and so
 * may hold together), fixed leases and the watchdog, re-entries, waits given up midway.
 */
export function handoffPlans(clients: number): fc.Arbitrary<readonly PlannedTask[]> {
  const acquisition = fc.record<PlannedAcquisition>({
    holdMs: fc.integer({ min: 0, max: 4 }),
    leaseTime: fc.option(fc.constantFrom(2_000, 5_000), { nil: undefined, freq: 3 }),
    reenter: fc.boolean(),
    abortAfterMs: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined, freq: 4 }),
  });
  const task = fc.record<PlannedTask>({
    client: fc.integer({ min: 0, max: clients - 1 }),
    owner: fc.option(fc.constantFrom('w1', 'w2'), { nil: undefined, freq: 3 }),
    acquisitions: fc.array(acquisition, { minLength: 1, maxLength: 4 }),
  });
  return fc.array(task, { minLength: 2, maxLength: 8 });
}

/**
 * Runs `plan` on `locks` (one lock of one name per client), all tasks at once, and tracks who is
 * inside: never two owners (client and owner) at a time. Every acquisition that is not given up
 * must succeed.
 */
export async function runPlan(
  plan: readonly PlannedTask[],
  locks: readonly ConformantLock[],
  clients: readonly LockClient[],
): Promise<PlanOutcome> {
  const inside = new Map<string, number>();
  let overlaps = 0;
  let acquired = 0;
  let wrongCounts = 0;
  const enter = (who: string) => {
    if ([...inside].some(([other, count]) => other !== who && count > 0)) overlaps++;
    inside.set(who, (inside.get(who) ?? 0) + 1);
  };
  const leave = (who: string) => inside.set(who, (inside.get(who) ?? 1) - 1);
  const runTask = async ({ client, owner, acquisitions }: PlannedTask) => {
    const lock = locks[client]!;
    for (const { holdMs, leaseTime, reenter, abortAfterMs } of acquisitions) {
      const controller = new AbortController();
      const timer =
        abortAfterMs === undefined ? undefined : setTimeout(() => controller.abort(new Error('gave up')), abortAfterMs);
      let held: HeldLock;
      try {
        held = await lock.acquire({
          waitTime: 20_000,
          signal: controller.signal,
          ...(owner === undefined ? {} : { owner }),
          ...(leaseTime === undefined ? {} : { leaseTime }),
        });
      } catch (error) {
        if (controller.signal.aborted) continue;
        throw error;
      } finally {
        clearTimeout(timer);
      }
      acquired++;
      const who = `${clients[client]!.id}:${held.owner}`;
      enter(who);
      if (reenter) {
        const again = await lock.acquire({ owner: held.owner, ...(leaseTime === undefined ? {} : { leaseTime }) });
        // Another task of the same named owner may hold too: at least this task's two.
        if ((await lock.holdCount(held.owner)) < 2) wrongCounts++;
        await again.release();
      }
      await sleep(holdMs);
      leave(who);
      await held.release();
    }
  };
  await Promise.all(plan.map(runTask));
  return { overlaps, acquired, wrongCounts };
}
