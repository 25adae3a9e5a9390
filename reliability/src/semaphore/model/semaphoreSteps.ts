import fc from 'fast-check';

/** One step of a semaphore model run: an operation of the public API, on one of the run's clients. */
export type SemaphoreStep =
  | { readonly op: 'trySetPermits'; readonly client: number; readonly permits: number }
  /** `tryAcquire(permits)`: one attempt. */
  | { readonly op: 'tryAcquire'; readonly client: number; readonly permits: number }
  /** `acquire(permits, { waitTime: 0 })`: one attempt, `PermitWaitTimeoutError` when too few. */
  | { readonly op: 'acquire'; readonly client: number; readonly permits: number }
  /** `release()` of the `pick`-th grant taken so far (modulo their number); reading the permits when there is none. */
  | { readonly op: 'releaseHeld'; readonly pick: number }
  /** `Semaphore.release(permits)`: permits that pass between processes. */
  | { readonly op: 'release'; readonly client: number; readonly permits: number }
  | { readonly op: 'addPermits'; readonly client: number; readonly permits: number }
  | { readonly op: 'drainPermits'; readonly client: number }
  | { readonly op: 'availablePermits'; readonly client: number };

// The most permits a step sets, asks for or adds: small, so that acquisitions both fit and do not.
const MOST = 4;

/** Steps for a run on `clients` clients: acquisitions and releases of grants weigh the most. */
export function semaphoreStep(clients: number): fc.Arbitrary<SemaphoreStep> {
  const client = fc.integer({ min: 0, max: clients - 1 });
  const permits = fc.integer({ min: 0, max: MOST });
  return fc.oneof(
    { weight: 1, arbitrary: fc.record({ op: fc.constant('trySetPermits' as const), client, permits }) },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('tryAcquire' as const), client, permits }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('acquire' as const), client, permits }) },
    { weight: 5, arbitrary: fc.record({ op: fc.constant('releaseHeld' as const), pick: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('release' as const), client, permits: fc.integer({ min: 0, max: MOST - 1 }) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('addPermits' as const), client, permits: fc.integer({ min: -MOST + 1, max: MOST - 1 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drainPermits' as const), client }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('availablePermits' as const), client }) },
  );
}

/** A step (of any semaphore model) as one line of a trace. */
export function describeStep(step: { readonly op: string }): string {
  const { op, ...args } = step;
  return `${op}(${Object.entries(args).map(([key, value]) => `${key}=${String(value)}`).join(', ')})`;
}
