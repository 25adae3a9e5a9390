import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CHAOS_RESULTS,
  renderWhatHolds,
  verdictOf,
  WHAT_HOLDS_GUIDE,
  type ChaosResultsJson,
  type ChaosRun,
} from '../../scripts/what-holds-page.mjs';

// The guide "What holds under faults" is generated from the checked-in chaos results
// (scripts/what-holds.mts): the committed guide must be what the script writes from them, and a
// cell may say "exclusion kept" only of runs where nothing overlapped and every holder was told.
const root = fileURLToPath(new URL('../../', import.meta.url));
const results = JSON.parse(readFileSync(join(root, CHAOS_RESULTS), 'utf8')) as ChaosResultsJson;

const kept: ChaosRun = {
  file: 'chaos-silent-master',
  scenario: '1. master host silent during holds',
  adapter: 'ioredis',
  tried: 'the master cut off',
  held: true,
  operations: 48,
  overlaps: 0,
  lostUpdates: 0,
  holdsAtFault: 2,
  holdsToldInTime: 2,
  holdsLeftInTime: 0,
  leaseMs: 2_000,
  commandTimeoutMs: 500,
  locks: ['Lock', 'FencedLock'],
  faults: 1,
  holdsLost: 2,
  grantsWhileCutOff: 0,
  leastAbortMarginMs: 900,
  longestReleaseTryMs: 500,
  longestAcquireTryMs: 2_000,
  recoveredHosts: 3,
  clientHosts: 3,
  durationMs: 15_000,
};

describe('what holds under faults', () => {
  it('is the guide the script writes from the committed chaos results (run `pnpm run docs:what-holds`)', () => {
    expect(readFileSync(join(root, WHAT_HOLDS_GUIDE), 'utf8')).toBe(renderWhatHolds(results));
  });

  it('calls a run "exclusion kept" only with no overlap, no update lost, every check passed and every holder told in time', () => {
    expect(verdictOf(kept)).toBe('exclusion kept');
    expect(verdictOf({ ...kept, overlaps: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...kept, lostUpdates: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...kept, held: false })).toBe('not guaranteed');
    expect(verdictOf({ ...kept, holdsToldInTime: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...kept, holdsToldInTime: 1, holdsLeftInTime: 1 })).toBe('exclusion kept');
    // A setting measured without a promise stays unpromised, even in a run without overlap.
    expect(verdictOf({ ...kept, measuredOnly: true })).toBe('not guaranteed');
    for (const run of results.runs.filter((each) => verdictOf(each) === 'exclusion kept'))
      expect(run.overlaps, `${run.scenario} on ${run.adapter}`).toBe(0);
  });

  it('calls a fenced run that lost no update "stale write refused", and one that lost an update or failed a check not guaranteed', () => {
    const fenced = { ...kept, lock: 'FencedLock', overlaps: 1, holdsToldInTime: 0, staleWritesRefused: 1 };
    expect(verdictOf(fenced)).toBe('stale write refused');
    expect(verdictOf({ ...fenced, lostUpdates: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...fenced, held: false })).toBe('not guaranteed');
    expect(verdictOf({ ...fenced, overlaps: 0, staleWritesRefused: 0 })).toBe('stale write refused');
  });

  it('names what to use instead where a lock is not guaranteed, and gives every run its counts', () => {
    const page = renderWhatHolds({
      date: '2026-11-28T00:00:00.000Z',
      machine: 'a test',
      held: 2,
      runs: [kept, { ...kept, scenario: '5. clock jump', lock: 'Lock', holdsToldInTime: 0, holdsTold: 1 }],
    });
    expect(page).toContain(
      '| 1. master host silent during holds | exclusion kept; holder told in time | ioredis (Lock and FencedLock together): 0 overlaps in 48 holds, 0 updates lost, 2 of 2 open holds told in time |',
    );
    expect(page).toContain('| 5. clock jump | not guaranteed — use `FencedLock` with a store that checks its token |');
    expect(page).toContain('## FencedLock (watchdog lease 2 s, `commandTimeout` 500 ms)');
  });

  it('calls a semaphore run "permits kept" only with no grant over its permits, every permit back and every check passed', () => {
    const permits = {
      ...kept,
      locks: undefined,
      lock: 'Semaphore',
      leaseMs: 0,
      permits: 2,
      permitsAtEnd: 2,
      mostHolders: 2,
    };
    expect(verdictOf(permits)).toBe('permits kept');
    expect(verdictOf({ ...permits, overlaps: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...permits, permitsAtEnd: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...permits, permitsAtEnd: 3 })).toBe('not guaranteed');
    expect(verdictOf({ ...permits, held: false })).toBe('not guaranteed');
    const page = renderWhatHolds({ date: '2026-11-28T00:00:00.000Z', machine: 'a test', held: 1, runs: [permits] });
    expect(page).toContain('## Semaphore (2 permits, `commandTimeout` 500 ms)');
    expect(page).toContain(
      '| permits kept | ioredis: 0 grants with more than 2 holders in 48 grants (at most 2 at once), 2 of 2 permits free at the end |',
    );
  });

  it('calls a latch run "never opened early" only when no waiter was let through early and every check passed', () => {
    const latch = { ...kept, locks: undefined, lock: 'CountDownLatch', leaseMs: 0, latchCount: 6, countdownCalls: 6 };
    expect(verdictOf(latch)).toBe('never opened early');
    expect(verdictOf({ ...latch, overlaps: 1 })).toBe('not guaranteed');
    expect(verdictOf({ ...latch, held: false })).toBe('not guaranteed');
  });
});
