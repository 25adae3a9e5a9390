// Scenario 9a: a semaphore's uncontended acquire + release of one permit, measured as scenario 1
// measures a lock's cycle, with the contenders taking turns against the same floor.
import type { Contender } from '../contenders/Contender.js';
import { semaphoreView, semaphoreViewId } from '../contenders/semaphoreView.js';
import type { Address } from '../drivers.js';
import type { ScenarioSpec } from '../report.js';
import { throughputColumns } from './throughput.js';
import type { Outcome } from './turns.js';
import { uncontended } from './uncontended.js';

/** Scenario 9a's table. */
export const SEMAPHORE_UNCONTENDED: ScenarioSpec = {
  id: 'semaphore-uncontended',
  title: '9a. Semaphore: uncontended acquire + release',
  measures:
    "acquire + release cycles of one permit per second, sequential, one client, on a semaphore of 4 permits nobody else wants (Deadbolt's `Semaphore`; redis-semaphore's `Semaphore`); the CPU time per cycle of this process and of redis-server, as in scenario 1.",
  floor:
    "as in scenario 1: two trivial EVALSHA round trips per cycle on the same client, in blocks interleaved with the semaphore's.",
  columns: throughputColumns('cycle'),
  headlines: [{ key: 'cyclesPerSecond', better: 'higher' }],
  feature: 'semaphore',
};

/**
 * Scenario 9a for every contender with a semaphore, `repetitions` times over: scenario 1's run on
 * their semaphore views (one permit of `permits`), its outcomes under the contenders' own ids.
 */
export async function semaphoreUncontended(
  contenders: readonly Contender[],
  address: Address,
  size: { readonly permits: number; readonly uncontended: { readonly cycles: number; readonly blocks: number } },
  repetitions: number,
): Promise<Map<string, Outcome>> {
  const shape = { limit: size.permits, permits: 1 };
  const outcomes = await uncontended(
    contenders.map((contender) => semaphoreView(contender, shape)),
    address,
    size.uncontended,
    repetitions,
  );
  return new Map(
    contenders.map((contender) => [
      contender.id,
      outcomes.get(semaphoreViewId(contender.id, shape)) ?? new Error('no outcome'),
    ]),
  );
}
