import type { Address } from '../drivers.js';

/** One acquisition in a worker, on the machine's shared clock: asked, acquired, release sent. */
export type Hold = [asked: number, acquired: number, released: number];

/** One heap sample of the memory run, taken after a full collection. */
export interface MemorySample {
  readonly cycles: number;
  readonly heapUsedBytes: number;
  /** `process.getActiveResourcesInfo()`: what keeps the event loop alive. */
  readonly activeResources: readonly string[];
}

/** Every job a worker runs: its payload and its result. */
export interface Jobs {
  ping: { payload: Record<string, never>; result: null };
  /** Connects the contender and warms its lock up (scripts loaded), ready for `handoffRun`. */
  handoffPrepare: {
    /** `kind`: the id of the lock kind contended for, the plain lock or the fair lock. */
    payload: { contender: string; address: Address; kind: string; lockName: string; leaseMs: number };
    result: null;
  };
  /**
   * `tasks` tasks take the prepared lock in turn, each holding it `holdMs` (0: a near-zero hold),
   * from `startAt` until the process made `acquisitions` or `stopAt` passed; then the session
   * closes, at the latest `drainMs` after `stopAt`, however many tasks still wait (`waitingAtEnd`).
   */
  handoffRun: {
    payload: { tasks: number; acquisitions: number; startAt: number; stopAt: number; drainMs: number; holdMs: number };
    result: { holds: Hold[]; commandsSent: number; waitingAtEnd: number };
  };
  /** `tasks` tasks on distinct keys make `cycles` lock + unlock cycles in all, sampling the heap. */
  memory: {
    payload: { contender: string; address: Address; cycles: number; tasks: number; samples: number };
    result: { samples: MemorySample[]; cyclesPerSecond: number };
  };
}

/** A job sent to a worker. */
export interface JobRequest {
  readonly id: number;
  readonly kind: keyof Jobs;
  readonly payload: unknown;
}

/** A worker's answer to a job. */
export type JobReply =
  { readonly id: number; readonly result: unknown } | { readonly id: number; readonly error: string };
