import { PERSISTENT_SERVER_ARGS } from '../faults/serverFaults.js';
import type { HammerOptions } from './runHammer.js';

/** How big a hammer run is and how long its leases are. */
export type HammerShape = Pick<
  HammerOptions,
  'processes' | 'tasksPerSubject' | 'holdsPerTask' | 'workMs' | 'watchdogTimeout' | 'commandTimeout'
>;

/**
 * Every kind together: 8 worker processes × 3 tasks for each lock (and each role of a
 * read-write lock) × 6 holds each, with a 3 s watchdog lease so that a killed holder's lock frees
 * within seconds, and freezes well within the lease (the watchdog renews every third of it).
 */
export const HAMMER_SHAPE = {
  processes: 8,
  tasksPerSubject: 3,
  holdsPerTask: 6,
  workMs: 2,
  watchdogTimeout: 3_000,
} as const satisfies HammerShape;

/** A freeze the lease outlasts: nothing may overlap. */
export const SHORT_PAUSE_MS = 300;

/**
 * The kinds with fencing tokens alone, in 4 processes, frozen past a 1 s lease: their holds do
 * overlap, and the fenced store must refuse the stale holder's writes so that no update is lost.
 * Each hold works for 10 ms, so that the run outlasts its freezes and a freeze often lands
 * between a hold's read and its write.
 */
export const FENCED_SHAPE = {
  processes: 4,
  tasksPerSubject: 3,
  holdsPerTask: 10,
  workMs: 10,
  watchdogTimeout: 1_000,
} as const satisfies HammerShape;

/** A freeze past the fenced run's lease. */
export const LONG_PAUSE_MS = 1_600;

/**
 * Where the within-lease hammers run, at {@link HAMMER_SHAPE}: a standalone server of their own
 * that keeps its data across a crash (for the restart fault), or a cluster with a replica per
 * master (for the failover fault).
 */
export const HAMMER_ON = {
  standalone: {
    topology: 'standalone',
    backendOptions: { dedicated: true, serverArgs: PERSISTENT_SERVER_ARGS },
    shape: HAMMER_SHAPE,
  },
  cluster: { topology: 'cluster', backendOptions: { replicas: 1 }, shape: HAMMER_SHAPE },
} as const;
