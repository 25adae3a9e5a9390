import type { Contender } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import { inTasks } from '../measure.js';
import type { ScenarioSpec } from '../report.js';
import { throughput, throughputColumns } from './throughput.js';
import type { Outcome } from './turns.js';

/** Scenario 1's table. */
export const UNCONTENDED: ScenarioSpec = {
  id: 'uncontended',
  title: '1. Uncontended lock + unlock',
  measures:
    'acquire + release cycles per second, sequential, one client, one key nobody else wants; the CPU time per cycle of this process (client) and of redis-server (server).',
  floor:
    "two EVALSHA round trips of a trivial script (`return 1`) on the same client, measured in blocks interleaved with the lock's blocks, and every contender's blocks taking turns, so that all see the same machine.",
  columns: throughputColumns('cycle'),
  headlines: [{ key: 'cyclesPerSecond', better: 'higher' }],
};

/**
 * Scenario 1 for every contender together, `repetitions` times over (see turns.ts): per
 * repetition, `cycles` lock cycles each, in `blocks` blocks.
 */
export function uncontended(
  contenders: readonly Contender[],
  address: Address,
  { cycles, blocks }: { cycles: number; blocks: number },
  repetitions: number,
): Promise<Map<string, Outcome>> {
  const cyclesPerBlock = Math.ceil(cycles / blocks);
  const locks = (contender: Contender) => [`bench:uncontended:${contender.id}`];
  return throughput(contenders, address, { rounds: blocks, repetitions, cyclesPerBlock, locks }, ([lock]) =>
    inTasks(1, cyclesPerBlock, async () => (await lock!.acquire()).release()),
  );
}
