import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_RUN_DIR_ENV } from '../results/figures.js';
import type { ChaosMeasures } from './chaosMeasures.js';
import type { CopiesAtJump } from './redlockCopies.js';

/** What a split with a Sentinel failover saw (scenario 2). */
export interface ChaosSplitFigures {
  /** How long the majority's Sentinels took to name a new master, from the split, in ms. */
  readonly failoverMs: number;
  /** Locks granted to the minority side's client host while split off (by the old master). */
  readonly minorityGrants: number;
  /** Locks granted to the majority side's client hosts meanwhile (by the new master, once there). */
  readonly majorityGrants: number;
}

/** One chaos run as `results/chaos.json` lists it. */
export interface ChaosRecord extends ChaosMeasures {
  /** The test file, without directory and `.test.ts`. */
  readonly file: string;
  /** The scenario: `1. master's host silent during holds`, say. */
  readonly scenario: string;
  readonly adapter: string;
  /** What was done, in words: the faults and clocks of the run. */
  readonly tried: string;
  /** Whether every check of the run passed. */
  readonly held: boolean;
  readonly faults: number;
  readonly operations: number;
  readonly overlaps: number;
  readonly lostUpdates: number;
  /** Holds told they lost their lock (signal aborted) or whose release found it gone. */
  readonly holdsLost: number;
  /**
   * Pairs of holds of one lock by two owners at once (the hammer's overlaps, also those a fenced
   * store made harmless): two grants of one lock.
   */
  readonly doubleGrants?: number;
  /**
   * `true` when the run measured a setting that promises nothing under its fault, without checking
   * exclusion: what happened once, never a promise (see `what-holds-page.mts`).
   */
  readonly measuredOnly?: boolean;
  /** What a split with a failover (scenario 2) saw; absent for the other scenarios. */
  readonly split?: ChaosSplitFigures;
  /** A RedLock run with members' clocks jumping: the holder's copies at each jump. */
  readonly copiesAtJumps?: readonly CopiesAtJump[];
  /** The lease of the run's holds, in ms; 0 for a kind without one (a Semaphore's permits, a latch). */
  readonly leaseMs: number;
  readonly commandTimeoutMs: number;
  /** The run's length, in ms. */
  readonly durationMs: number;
  /** The one lock the record is of, when a run records each of its locks apart (`FencedLock`). */
  readonly lock?: string;
  /** The locks the run hammered, when its figures are of them together (`Lock`, `FencedLock`). */
  readonly locks?: readonly string[];
  /** Of `holdsAtFault`, holds told (their signal aborted) before their work ended, when measured. */
  readonly holdsTold?: number;
  /** The longest a told holder worked on after the fault before its signal aborted, in ms. */
  readonly slowestToldMs?: number | null;
  /** Writes the fenced store refused for a stale token, when measured. */
  readonly staleWritesRefused?: number;
  /**
   * A semaphore's permits, in a run of one (`overlaps` then counts grants at which the store saw
   * more holders than permits at once).
   */
  readonly permits?: number;
  /** A semaphore run's most holders at once, counted at the store. */
  readonly mostHolders?: number;
  /** A semaphore run's free permits once every holder gave back and every lease ended. */
  readonly permitsAtEnd?: number;
  /** A semaphore run's permits still marked held then. */
  readonly permitsHeldAtEnd?: number;
  /**
   * A count-down latch's count, in a run of one (`overlaps` then counts waiters let through
   * before that many countdowns were sent).
   */
  readonly latchCount?: number;
  /** A latch run's countdown calls: its count, and one more for each call of unknown outcome that did not run. */
  readonly countdownCalls?: number;
  /** A latch run's countdowns a failover lost: the count left once every countdown came back. */
  readonly countdownsLost?: number;
}

/** A chaos record's counts with nothing counted: a run fills in what it measures. */
export const NOTHING_COUNTED = {
  faults: 0,
  operations: 0,
  overlaps: 0,
  lostUpdates: 0,
  holdsLost: 0,
  grantsWhileCutOff: 0,
  holdsAtFault: 0,
  holdsToldInTime: 0,
  holdsLeftInTime: 0,
  leastAbortMarginMs: null,
  longestReleaseTryMs: 0,
  longestAcquireTryMs: 0,
  recoveredHosts: 0,
  clientHosts: 0,
} as const;

/** What names a chaos run's record, known before the run. */
export type ChaosRecordHead = Pick<
  ChaosRecord,
  'scenario' | 'adapter' | 'tried' | 'leaseMs' | 'commandTimeoutMs' | 'lock' | 'locks'
> & { readonly testFile: string };

/** The subdirectory of the suite's run directory where chaos records go. */
export const CHAOS_RECORDS_DIR = 'chaos';

/**
 * Keeps a chaos run's record for `results/chaos.{json,md}` (see `publishChaos`), in the suite's run
 * directory, written whole by a rename.
 */
export function recordChaos(record: Omit<ChaosRecord, 'file'> & { readonly testFile: string }): void {
  const runDir = process.env[RESULTS_RUN_DIR_ENV];
  if (runDir === undefined)
    throw new Error(`${RESULTS_RUN_DIR_ENV} is not set: run the suite through its vitest project`);
  const { testFile, ...rest } = record;
  const file = path.basename(fileURLToPath(testFile)).replace(/\.test\.ts$/, '');
  const dir = path.join(runDir, CHAOS_RECORDS_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${file}.${record.adapter}.${record.lock ?? 'all'}.${process.pid}.${Date.now()}.json`);
  fs.writeFileSync(`${target}.tmp`, JSON.stringify({ file, ...rest }));
  fs.renameSync(`${target}.tmp`, target);
}

/**
 * Prints a run's record, runs its checks, then keeps the record (see {@link recordChaos}) with
 * whether they passed and the run's length since `started` (`performance.now()`); rethrows a
 * failed check.
 */
export function recordChecked(
  record: Omit<ChaosRecord, 'file' | 'held' | 'durationMs'> & { readonly testFile: string },
  started: number,
  check: () => void,
): void {
  console.log(`chaos ${record.scenario} on ${record.adapter}: ${JSON.stringify({ ...record, testFile: undefined })}`);
  const durationMs = () => Math.round(performance.now() - started);
  try {
    check();
  } catch (error) {
    recordChaos({ ...record, held: false, durationMs: durationMs() });
    throw error;
  }
  recordChaos({ ...record, held: true, durationMs: durationMs() });
}

/**
 * Resolves as `run` does; when it rejects before its checks (a worker failed), first keeps its
 * record (see {@link recordChaos}) as not held, nothing counted, since `started`.
 */
export function recordedIfUnfinished<T>(head: ChaosRecordHead, started: number, run: Promise<T>): Promise<T> {
  return run.catch((error: unknown) => {
    recordChaos({
      ...NOTHING_COUNTED,
      ...head,
      held: false,
      tried: `${head.tried} (the run did not finish)`,
      durationMs: Math.round(performance.now() - started),
    });
    throw error;
  });
}
