import type { ChildJob } from '@deadbolt/conformance/connect';
import type { HammerEvent } from '../hammer/hammerEvents.js';
import type { StoreAddress } from '../store/ResourceStore.js';

/** What the test process hands a chaos permit worker (`src/workers/chaosPermits.ts`). */
export interface ChaosPermitJob extends ChildJob {
  /** The semaphore kind's id in `PERMIT_KINDS`. */
  readonly kind: string;
  readonly name: string;
  /** The semaphore's permits: each worker sets them if nobody did. */
  readonly permits: number;
  /** The store, on a host no fault touches, and its key counting the holders at once. */
  readonly store: StoreAddress;
  readonly holdersKey: string;
  /** Tasks in the worker, each taking one permit `holdsPerTask` times, holding it `workMs`. */
  readonly tasks: number;
  readonly holdsPerTask: number;
  readonly workMs: number;
}

/**
 * What a chaos permit worker prints, each as it happens (monotonic microseconds): `acquired` with
 * the holders the store counted with it, `told` when a leased permit's signal aborts, `worked`
 * when the holder stopped counting itself (its work done, or told), `released` with the outcome,
 * `retried` as the hammer's: a call that failed with a typed error, tried again.
 */
export type ChaosPermitEvent =
  | { readonly event: 'ready' }
  | { readonly event: 'acquired'; readonly hold: string; readonly at: number; readonly holders: number }
  | { readonly event: 'told'; readonly hold: string; readonly at: number }
  | { readonly event: 'worked'; readonly hold: string; readonly end: number; readonly told: boolean }
  | {
      readonly event: 'released';
      readonly hold: string;
      readonly at: number;
      readonly outcome: 'released' | 'lapsed' | 'unknown';
    }
  | Extract<HammerEvent, { event: 'retried' }>
  | { readonly event: 'done' }
  | { readonly event: 'failed'; readonly message: string };

/** The environment variable a chaos permit worker reads its job from. */
export const CHAOS_PERMIT_JOB_VARIABLE = 'DEADBOLT_RELIABILITY_CHAOS_PERMIT_JOB';

/** What the test process hands a chaos latch worker (`src/workers/chaosLatch.ts`). */
export interface ChaosLatchJob extends ChildJob {
  readonly name: string;
  /** The count: each worker sets it if nobody did. */
  readonly count: number;
  /** The store, and its key counting the countdowns sent (each before its first call). */
  readonly store: StoreAddress;
  readonly sentKey: string;
  /** Tasks of the worker waiting for the latch to open. */
  readonly waiters: number;
}

/**
 * What a chaos latch worker prints: `opened` when a waiter's `await` resolved `true`, with the
 * countdowns sent by then (read at the store after it); `counted` when a countdown asked for on
 * stdin (`count`) came back, with the calls it took (a call of unknown outcome that did not run is
 * made again); `retried` for a call that failed with Redis unreachable.
 */
export type ChaosLatchEvent =
  | { readonly event: 'ready' }
  | { readonly event: 'opened'; readonly waiter: number; readonly at: number; readonly sent: number }
  | { readonly event: 'counted'; readonly at: number; readonly calls: number }
  | {
      readonly event: 'retried';
      readonly stage: 'await' | 'countDown' | 'getCount';
      readonly error: string;
      readonly at: number;
    }
  | { readonly event: 'done' }
  | { readonly event: 'failed'; readonly message: string };

/** The environment variable a chaos latch worker reads its job from. */
export const CHAOS_LATCH_JOB_VARIABLE = 'DEADBOLT_RELIABILITY_CHAOS_LATCH_JOB';
