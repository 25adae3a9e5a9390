import type { Contender } from '../contenders/Contender.js';
import { trivialScript, type Address } from '../drivers.js';
import type { ScenarioSpec } from '../report.js';
import { percentile } from '../stats.js';

/** Scenario 6's table. */
export const REDLOCK: ScenarioSpec = {
  id: 'redlock',
  title: '6. RedLock over 5 servers',
  measures:
    'the latency of acquiring an uncontended RedLock over 5 independent redis-servers (release not timed), sequential, one client per server; round trips: commands sent per acquire + release, over all servers.',
  floor: 'one trivial EVALSHA sent to all 5 servers at once, until all 5 answered (one quorum round trip), in blocks interleaved with the lock\'s.',
  columns: [
    { key: 'acquireP50Ms', label: 'acquire p50 ms' },
    { key: 'acquireP99Ms', label: 'acquire p99 ms' },
    { key: 'floorP50Ms', label: 'floor p50 ms' },
    { key: 'floorP99Ms', label: 'floor p99 ms' },
    { key: 'p50InFloors', label: 'p50 / floor p50' },
    { key: 'p99InFloors', label: 'p99 / floor p99' },
    { key: 'roundTripsPerCycle', label: 'round trips/cycle' },
  ],
  headline: { key: 'acquireP50Ms', better: 'lower' },
  feature: 'redlock',
};

/** Scenario 6 for one contender: `cycles` acquisitions in `blocks` blocks, alternating with the floor's. */
export async function redlock(contender: Contender, addresses: readonly Address[], cycles: number, blocks: number) {
  if (!contender.connectRedlock) throw new Error(`${contender.id} has no RedLock`);
  const session = await contender.connectRedlock(addresses);
  try {
    const mutex = session.mutex(`bench:redlock:${contender.id}`);
    const acquires: number[] = [];
    const floors: number[] = [];
    const perBlock = Math.ceil(cycles / blocks);
    const sentByAll = () => session.connections.reduce((sum, connection) => sum + connection.counter.sent, 0);
    let sent = 0;
    for (let block = -1; block < blocks; block++) {
      // Block -1 warms both up and is not counted.
      const lockTimes: number[] = [];
      const floorTimes: number[] = [];
      const sentBefore = sentByAll();
      for (let i = 0; i < perBlock; i++) {
        const asked = performance.now();
        const held = await mutex.acquire();
        lockTimes.push(performance.now() - asked);
        await held.release();
      }
      const sentInBlock = sentByAll() - sentBefore;
      for (let i = 0; i < perBlock; i++) {
        const asked = performance.now();
        await Promise.all(session.connections.map(trivialScript));
        floorTimes.push(performance.now() - asked);
      }
      if (block < 0) continue;
      acquires.push(...lockTimes);
      floors.push(...floorTimes);
      sent += sentInBlock;
    }
    const p50 = percentile(acquires, 50);
    const p99 = percentile(acquires, 99);
    return {
      acquireP50Ms: p50,
      acquireP99Ms: p99,
      floorP50Ms: percentile(floors, 50),
      floorP99Ms: percentile(floors, 99),
      p50InFloors: p50 / percentile(floors, 50),
      p99InFloors: p99 / percentile(floors, 99),
      roundTripsPerCycle: sent / acquires.length,
    };
  } finally {
    await session.close();
  }
}
