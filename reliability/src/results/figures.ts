import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FaultType } from '../faults/FaultLog.js';

/** What one test measured. Every count is of events in that test. */
export interface Figures {
  /** Faults injected, by type. */
  readonly faults: Partial<Record<FaultType, number>>;
  /** Lock operations completed: holds taken and released as their owner expected. */
  readonly operations: number;
  /** Overlapping holds of distinct owners not explained by a frozen holder's expired lease. */
  readonly overlaps: number;
  /** Overlaps explained by a frozen holder's expired lease (each must be caught by fencing). */
  readonly excusedOverlaps: number;
  /** Increments of a guarded counter that were overwritten: writes landed minus the counter. */
  readonly lostUpdates: number;
  /** Reads and writes a fenced store refused because they carried a stale token. */
  readonly staleWritesRejected: number;
  /** Bad inputs tried on public entry points. */
  readonly badInputs: number;
  /**
   * Steps of the model-based tests (packages/conformance/test/model-*.test.ts) run in the same
   * test run, each checked against the reference model and Redis's state; recorded by those tests
   * (their `recordModelSteps`) when this suite's run directory is set.
   */
  readonly modelSteps: number;
  /**
   * Holds a Redisson peer (packages/conformance/src/redisson: a Java client's behaviour on the
   * wire) took on locks that Deadbolt clients contended for (hammer-redisson).
   */
  readonly redissonPeerHolds: number;
  /** Runs of a Redisson peer's renewal tasks (`LockTask` and `ReadLockTask`) while it held those locks. */
  readonly redissonPeerRenewals: number;
  /**
   * Semaphore counts that did not add up (hammer-semaphore): an end count that the permits killed
   * holders kept do not account for, or a read of the available permits outside 0..N. Absent in
   * records that count none.
   */
  readonly permitMiscounts?: number;
  /** Permits that semaphore holders killed with them kept for good, each accounted for in the end count. */
  readonly permitsLeaked?: number;
  /**
   * Copies of requests the fault proxy delivered late, on their old connection, later than twice
   * the client's `commandTimeout` (every driver): see `src/faults/lateCopies.ts`.
   */
  readonly lateDeliveries?: number;
  /**
   * Copies of a cut request the driver (ioredis) sent again after a partition longer than every
   * record of the request lives (3 × `commandTimeout`).
   */
  readonly lateResends?: number;
  /**
   * Times a count-down latch was seen open (its key gone, `getCount()` 0, or an `await` that
   * returned `true`) while the model's count was above zero, in the latch model: must be 0.
   */
  readonly latchesOpenedEarly?: number;
}

/** {@link Figures} of one test, with where they come from. */
export interface FigureRecord extends Figures {
  /** The test file, without directory and `.test.ts`. */
  readonly file: string;
  /** The adapter and topology (`ioredis/standalone`), or `any` for tests that need no backend. */
  readonly scope: string;
}

/** The environment variable that names the run directory, set by the suite's global setup. */
export const RESULTS_RUN_DIR_ENV = 'DEADBOLT_RELIABILITY_RUN_DIR';

const NONE: Figures = { faults: {}, operations: 0, overlaps: 0, excusedOverlaps: 0, lostUpdates: 0, staleWritesRejected: 0, badInputs: 0, modelSteps: 0, redissonPeerHolds: 0, redissonPeerRenewals: 0 };
let sequence = 0;

/**
 * Records a test's figures for the run's results. `testFile` is the test's `import.meta.url`.
 * Each record is its own file in the run directory, written whole by a rename, so test files
 * running in parallel never interleave; the global setup's teardown adds them up.
 */
export function recordFigures(testFile: string, scope: string, figures: Partial<Figures>): void {
  const runDir = process.env[RESULTS_RUN_DIR_ENV];
  if (runDir === undefined) throw new Error(`${RESULTS_RUN_DIR_ENV} is not set: run the suite through its vitest project`);
  const file = path.basename(fileURLToPath(testFile)).replace(/\.test\.ts$/, '');
  const record: FigureRecord = { ...NONE, ...figures, file, scope };
  const target = path.join(runDir, `${file}.${process.pid}.${++sequence}.json`);
  fs.writeFileSync(`${target}.tmp`, JSON.stringify(record));
  fs.renameSync(`${target}.tmp`, target);
}

/** Adds figures up, fault counts by type. */
export function addFigures(records: readonly Figures[]): Figures {
  const faults: Partial<Record<FaultType, number>> = {};
  for (const record of records) {
    for (const [type, count] of Object.entries(record.faults) as [FaultType, number][]) faults[type] = (faults[type] ?? 0) + count;
  }
  // A record written before a figure existed lacks it: it counts 0.
  const sum = (field: Exclude<keyof Figures, 'faults'>) => records.reduce((total, record) => total + (record[field] ?? 0), 0);
  return {
    faults,
    operations: sum('operations'),
    overlaps: sum('overlaps'),
    excusedOverlaps: sum('excusedOverlaps'),
    lostUpdates: sum('lostUpdates'),
    staleWritesRejected: sum('staleWritesRejected'),
    badInputs: sum('badInputs'),
    modelSteps: sum('modelSteps'),
    redissonPeerHolds: sum('redissonPeerHolds'),
    redissonPeerRenewals: sum('redissonPeerRenewals'),
    permitMiscounts: sum('permitMiscounts'),
    permitsLeaked: sum('permitsLeaked'),
    lateDeliveries: sum('lateDeliveries'),
    lateResends: sum('lateResends'),
    latchesOpenedEarly: sum('latchesOpenedEarly'),
  };
}
