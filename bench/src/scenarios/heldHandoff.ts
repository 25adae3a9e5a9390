import type { ScenarioSpec } from '../report.js';
import { HANDOFF_COLUMNS } from './handoff.js';

// The figures a held run shows: what the contention costs, not the handoff latency.
const HELD_FIGURES: readonly string[] = [
  'acquisitionsPerSecond',
  'waitP50Ms',
  'waitP99Ms',
  'commandsPerSecond',
  'commandsPerAcquisition',
  'roundTripsPerAcquisition',
  'toAnotherProcessPercent',
  'overlappingGrants',
  'waitingAtEnd',
];

/** The realistic-hold runs: how long each holder keeps the lock, and how many wait for it. */
export const HELD_HANDOFFS = [
  { holdMs: 2, waiters: 8 },
  { holdMs: 2, waiters: 128 },
  { holdMs: 20, waiters: 8 },
  { holdMs: 20, waiters: 128 },
] as const;

/**
 * How long a held run waits for the acquisitions in flight once it stops asking: every waiter
 * still queued gets its turn of `holdMs`, with room to spare.
 */
export function heldDrainMs(holdMs: number, waiters: number): number {
  return waiters * holdMs * 2 + 1_000;
}

/** Scenario 3c's table for one hold time and number of waiters: the plain lock held as work holds it. */
export function heldHandoffSpec(holdMs: number, waiters: number): ScenarioSpec {
  return {
    id: `held-${holdMs}ms-${waiters}`,
    title: `3c. Contended, ${holdMs} ms holds: ${waiters} waiters`,
    measures: `4 processes × ${waiters / 4} tasks take one lock in turn and hold it ${holdMs} ms each, as work would. Acquisitions/s (at most ${1000 / holdMs} with the lock never idle); wait from asking to holding, p50 and p99; the Redis commands the contention costs per second and per acquisition (every command Redis ran, script-run ones included: a library that polls pays here while its waiters wait); the share of acquisitions that moved the lock to another process.`,
    floor: `the lock never idle: ${1000 / holdMs} acquisitions/s.`,
    columns: HANDOFF_COLUMNS.filter(({ key }) => HELD_FIGURES.includes(key)),
    headlines: [
      { key: 'acquisitionsPerSecond', better: 'higher' },
      { key: 'waitP99Ms', better: 'lower' },
      { key: 'commandsPerSecond', better: 'lower' },
    ],
    notes: [
      'With the lock busy all the time every library nears the same throughput; what differs is what waiting costs Redis and how long the unlucky waiter waits (wait p99).',
    ],
  };
}
