import type { Contender } from '../contenders/Contender.js';
import type { Address } from '../drivers.js';
import type { ScenarioSpec } from '../report.js';
import { WorkerPool } from '../workers/WorkerPool.js';

/** The shape of a memory run. */
export interface MemoryOptions {
  readonly cycles: number;
  readonly tasks: number;
  /** Heap samples, the first of which ends the warm-up. */
  readonly samples: number;
}

/** Scenario 8's table. */
export function memorySpec(options: MemoryOptions): ScenarioSpec {
  const cycles = options.cycles.toLocaleString('en-US');
  return {
    id: 'memory',
    title: `8. Memory: ${cycles} lock + unlock cycles`,
    measures: `${cycles} acquire + release cycles by ${options.tasks} concurrent tasks on distinct keys, in a fresh process; the heap after a full GC (--expose-gc) at the end of the warm-up (the first ${Math.round(100 / options.samples)} % of the cycles) and every ${Math.round(100 / options.samples)} % after it, and the active resources (process.getActiveResourcesInfo()) at both ends.`,
    floor: 'the heap and the resources at the end of the warm-up: no growth past it.',
    columns: [
      { key: 'cycles', label: 'cycles' },
      { key: 'cyclesPerSecond', label: 'cycles/s' },
      { key: 'heapWarmMiB', label: 'heap after warm-up MiB' },
      { key: 'heapEndMiB', label: 'heap at end MiB' },
      { key: 'heapMaxMiB', label: 'largest sample MiB' },
      { key: 'heapEndToWarm', label: 'end / warm-up' },
      { key: 'activeResourcesWarm', label: 'resources after warm-up' },
      { key: 'activeResourcesEnd', label: 'resources at end' },
    ],
  };
}

const MIB = 2 ** 20;

function countByType(prefix: string, resources: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of resources) counts[`${prefix}.${type}`] = (counts[`${prefix}.${type}`] ?? 0) + 1;
  return counts;
}

/** Scenario 8 for one contender, in a worker process of its own. */
export async function memory(contender: Contender, address: Address, options: MemoryOptions) {
  const pool = await WorkerPool.start(1);
  try {
    const { samples, cyclesPerSecond } = await pool.run(
      0,
      'memory',
      { contender: contender.id, address, ...options },
      15 * 60_000,
    );
    const warm = samples[0]!;
    const end = samples.at(-1)!;
    return {
      cycles: end.cycles,
      cyclesPerSecond,
      heapWarmMiB: warm.heapUsedBytes / MIB,
      heapEndMiB: end.heapUsedBytes / MIB,
      heapMaxMiB: Math.max(...samples.map((sample) => sample.heapUsedBytes)) / MIB,
      heapEndToWarm: end.heapUsedBytes / warm.heapUsedBytes,
      activeResourcesWarm: warm.activeResources.length,
      activeResourcesEnd: end.activeResources.length,
      // By type, for the JSON: e.g. `activeResourcesEnd.TCPSocketWrap`.
      ...countByType('activeResourcesEnd', end.activeResources),
    };
  } finally {
    await pool.close();
  }
}
