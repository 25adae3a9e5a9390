import fc from 'fast-check';
import { INJECTED_FAULTS, type InjectedFault } from '../../faults/modelFaults.js';

/**
 * A lease a step asks for: `watchdog` (no `leaseTime`: the client's watchdog renews it), `short`
 * (ends within the run: see `SHORT_LEASE_MS`), `long` (outlasts the run).
 */
export type LeaseChoice = 'watchdog' | 'short' | 'long';

/** One step of a `PermitExpirableSemaphore` model run: an operation of its public API, or time passing. */
export type ExpirableStep =
  | { readonly op: 'trySetPermits'; readonly client: number; readonly permits: number }
  /** `tryAcquire(permits, { leaseTime })`: one attempt. */
  | { readonly op: 'tryAcquire'; readonly client: number; readonly permits: number; readonly lease: LeaseChoice }
  /** `release()` of the `pick`-th acquisition so far (modulo their number); reading the permits when there is none. */
  | { readonly op: 'releaseHeld'; readonly pick: number }
  /** `updateLeaseTime(ms)` of the `pick`-th acquisition. */
  | { readonly op: 'updateLeaseHeld'; readonly pick: number; readonly lease: Exclude<LeaseChoice, 'watchdog'> }
  /** `tryRelease(id)` of the `pick`-th permit id handed out so far, on a client of its own (released already: `false`). */
  | { readonly op: 'releaseId'; readonly client: number; readonly pick: number }
  /** `updateLeaseTime(id, ms)` of the `pick`-th permit id. */
  | {
      readonly op: 'updateLeaseId';
      readonly client: number;
      readonly pick: number;
      readonly lease: Exclude<LeaseChoice, 'watchdog'>;
    }
  | { readonly op: 'addPermits'; readonly client: number; readonly permits: number }
  | { readonly op: 'availablePermits'; readonly client: number }
  /** Time passes until every short lease given so far has ended. */
  | { readonly op: 'pass' }
  /**
   * `step` on the proxied client (the last one; a `releaseHeld` or `updateLeaseHeld` reaches the
   * proxy only for an acquisition that client made), with `fault` injected into its request.
   */
  | { readonly op: 'inject'; readonly fault: InjectedFault; readonly step: MutatingExpirableStep };

/** The steps that change a `PermitExpirableSemaphore`: what an injected fault targets. */
export type MutatingExpirableStep = Extract<
  ExpirableStep,
  {
    readonly op:
      'trySetPermits' | 'tryAcquire' | 'releaseHeld' | 'updateLeaseHeld' | 'releaseId' | 'updateLeaseId' | 'addPermits';
  }
>;

// The most permits a step sets or adds; an acquisition asks for 1 to MOST - 1.
const MOST = 4;

/**
 * What every run starts with, before its random steps: permits to take, so that the run spends
 * its steps on acquisitions, leases and releases rather than on a semaphore without permits.
 */
export const FIRST_STEP: ExpirableStep = { op: 'trySetPermits', client: 0, permits: MOST };

/**
 * Steps for a run on `clients` clients whose last one is proxied: {@link expirableStep}'s, and
 * one in four injects a late copy or a cut into a change made on the proxied client.
 */
export function faultyExpirableStep(clients: number): fc.Arbitrary<ExpirableStep> {
  const client = fc.constant(clients - 1);
  const lease = fc.constantFrom<LeaseChoice>('watchdog', 'short', 'long');
  const fixed = fc.constantFrom<'short' | 'long'>('short', 'long');
  const target: fc.Arbitrary<MutatingExpirableStep> = fc.oneof(
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('trySetPermits' as const),
        client,
        permits: fc.integer({ min: 1, max: MOST }),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('tryAcquire' as const),
        client,
        permits: fc.integer({ min: 1, max: MOST - 1 }),
        lease,
      }),
    },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('releaseHeld' as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('updateLeaseHeld' as const), pick: fc.nat(), lease: fixed }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('releaseId' as const), client, pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('updateLeaseId' as const), client, pick: fc.nat(), lease: fixed }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('addPermits' as const),
        client,
        permits: fc.integer({ min: -MOST / 2, max: MOST - 1 }).filter((n) => n !== 0),
      }),
    },
  );
  return fc.oneof(
    { weight: 3, arbitrary: expirableStep(clients) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('inject' as const),
        fault: fc.constantFrom(...INJECTED_FAULTS),
        step: target,
      }),
    },
  );
}

/** Steps for a run on `clients` clients: acquisitions and releases weigh the most. */
export function expirableStep(clients: number): fc.Arbitrary<ExpirableStep> {
  const client = fc.integer({ min: 0, max: clients - 1 });
  const lease = fc.constantFrom<LeaseChoice>('watchdog', 'short', 'long');
  const fixed = fc.constantFrom<'short' | 'long'>('short', 'long');
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('trySetPermits' as const),
        client,
        permits: fc.integer({ min: 0, max: MOST }),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant('tryAcquire' as const),
        client,
        permits: fc.integer({ min: 1, max: MOST - 1 }),
        lease,
      }),
    },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('releaseHeld' as const), pick: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('updateLeaseHeld' as const), pick: fc.nat(), lease: fixed }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('releaseId' as const), client, pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({ op: fc.constant('updateLeaseId' as const), client, pick: fc.nat(), lease: fixed }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('addPermits' as const),
        client,
        permits: fc.integer({ min: -MOST / 2, max: MOST - 1 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('availablePermits' as const), client }) },
    { weight: 2, arbitrary: fc.constant({ op: 'pass' as const }) },
  );
}
