import type { Contender } from '../contenders/Contender.js';
import { trivialScript, type Address } from '../drivers.js';
import type { ScenarioSpec } from '../report.js';
import { takeTurns, type Outcome } from './turns.js';
import { percentile } from '../stats.js';

/** Scenario 6's table. */
export const REDLOCK: ScenarioSpec = {
  id: 'redlock',
  title: '6. RedLock over 5 servers',
  measures:
    'the latency of acquiring an uncontended RedLock over 5 independent redis-servers (release not timed), sequential, one client per server; round trips: commands sent per acquire + release, over all servers.',
  floor:
    "one trivial EVALSHA sent to all 5 servers at once, until all 5 answered (one quorum round trip), in blocks interleaved with the lock's, every contender's blocks taking turns.",
  columns: [
    { key: 'acquireP50Ms', label: 'acquire p50 ms' },
    { key: 'acquireP99Ms', label: 'acquire p99 ms' },
    { key: 'floorP50Ms', label: 'floor p50 ms' },
    { key: 'floorP99Ms', label: 'floor p99 ms' },
    { key: 'p50InFloors', label: 'p50 / floor p50' },
    { key: 'p99InFloors', label: 'p99 / floor p99' },
    { key: 'roundTripsPerCycle', label: 'round trips/cycle' },
  ],
  headlines: [{ key: 'acquireP50Ms', better: 'lower' }],
  feature: 'redlock',
};

/**
 * Scenario 6 for every contender with a RedLock, taking turns, `repetitions` times over (see
 * turns.ts): per repetition, `cycles` acquisitions each, in `blocks` blocks, each followed by a
 * block of the floor's round trips.
 */
export function redlock(
  contenders: readonly Contender[],
  addresses: readonly Address[],
  { cycles, blocks }: { cycles: number; blocks: number },
  repetitions: number,
): Promise<Map<string, Outcome>> {
  const perBlock = Math.ceil(cycles / blocks);
  return takeTurns(contenders, { rounds: blocks, repetitions }, async (contender) => {
    if (!contender.connectRedlock) throw new Error(`${contender.id} has no RedLock`);
    const session = await contender.connectRedlock(addresses);
    const mutex = session.mutex(`bench:redlock:${contender.id}`);
    const sentByAll = () => session.connections.reduce((sum, connection) => sum + connection.counter.sent, 0);
    let acquires: number[] = [];
    let floors: number[] = [];
    let sent = 0;
    return {
      block: async (counted) => {
        const sentBefore = sentByAll();
        const lockTimes = await timed(
          perBlock,
          () => mutex.acquire(),
          (held) => held.release(),
        );
        const sentInBlock = sentByAll() - sentBefore;
        const floorTimes = await timed(perBlock, () => Promise.all(session.connections.map(trivialScript)));
        if (!counted) return;
        acquires.push(...lockTimes);
        floors.push(...floorTimes);
        sent += sentInBlock;
      },
      takeFigures: () => {
        const p50 = percentile(acquires, 50);
        const p99 = percentile(acquires, 99);
        const taken = {
          acquireP50Ms: p50,
          acquireP99Ms: p99,
          floorP50Ms: percentile(floors, 50),
          floorP99Ms: percentile(floors, 99),
          p50InFloors: p50 / percentile(floors, 50),
          p99InFloors: p99 / percentile(floors, 99),
          roundTripsPerCycle: sent / acquires.length,
        };
        [acquires, floors, sent] = [[], [], 0];
        return taken;
      },
      close: () => session.close(),
    };
  });
}

/** `count` sequential runs of `step`, each timed, then `after` (untimed) with its result: the times in ms. */
async function timed<T>(
  count: number,
  step: () => Promise<T>,
  after?: (result: T) => Promise<unknown>,
): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = await step();
    times.push(performance.now() - started);
    await after?.(result);
  }
  return times;
}
