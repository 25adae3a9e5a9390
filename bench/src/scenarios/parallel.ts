import type { Contender } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { inTasks } from '../measure.js';
import type { ScenarioSpec } from '../report.js';
import { throughput, throughputColumns } from './throughput.js';
import type { Outcome } from './turns.js';

/** Scenario 2's table. */
export const PARALLEL: ScenarioSpec = {
  id: 'parallel',
  title: '2. Parallel: 256 tasks on distinct keys',
  measures:
    'acquisitions (acquire + release cycles) per second of 256 concurrent tasks on one client, each on a key of its own.',
  floor:
    "the same 256 tasks each making two trivial EVALSHA round trips per cycle on the same client, in blocks interleaved with the lock's, every contender's blocks taking turns.",
  columns: throughputColumns('acquisition'),
  headlines: [{ key: 'cyclesPerSecond', better: 'higher' }],
};

const TASKS = 256;

/**
 * Scenario 2 for every contender together, `repetitions` times over (see turns.ts): per
 * repetition, `blocks` blocks of `cyclesPerTask` cycles per task.
 */
export function parallel(
  contenders: readonly Contender[],
  address: Address,
  { cyclesPerTask, blocks }: { cyclesPerTask: number; blocks: number },
  repetitions: number,
): Promise<Map<string, Outcome>> {
  const locks = (contender: Contender) =>
    Array.from({ length: TASKS }, (_, task) => `bench:parallel:${contender.id}:${task}`);
  return throughput(
    contenders,
    address,
    { rounds: blocks, repetitions, cyclesPerBlock: TASKS * cyclesPerTask, locks },
    (mutexes) => inTasks(TASKS, cyclesPerTask, async (task) => (await mutexes[task]!.acquire()).release()),
  );
}
