import fc from 'fast-check';
import { INJECTED_FAULTS, type InjectedFault } from '../../faults/modelFaults.js';

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
  | { readonly op: 'availablePermits'; readonly client: number }
  /**
   * `step` on the proxied client (the last one; a `releaseHeld` reaches the proxy only for a
   * grant that client took), with `fault` injected into its request: a copy delivered late, or a
   * cut and a partition past the request's records (see `FaultInjector`).
   */
  | { readonly op: 'inject'; readonly fault: InjectedFault; readonly step: MutatingSemaphoreStep };

/** The steps that change a semaphore: what an injected fault targets. */
export type MutatingSemaphoreStep = Extract<
  SemaphoreStep,
  {
    readonly op: 'trySetPermits' | 'tryAcquire' | 'acquire' | 'releaseHeld' | 'release' | 'addPermits' | 'drainPermits';
  }
>;

// The most permits a step sets, asks for or adds: small, so that acquisitions both fit and do not.
const MOST = 4;

/**
 * Steps for a run on `clients` clients whose last one is proxied: {@link semaphoreStep}'s, and one
 * in four injects a late copy or a cut into a change made on the proxied client.
 */
export function faultySemaphoreStep(clients: number): fc.Arbitrary<SemaphoreStep> {
  const proxied = clients - 1;
  const client = fc.constant(proxied);
  const permits = fc.integer({ min: 1, max: MOST });
  const target: fc.Arbitrary<MutatingSemaphoreStep> = fc.oneof(
    { weight: 1, arbitrary: fc.record({ op: fc.constant('trySetPermits' as const), client, permits }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('tryAcquire' as const), client, permits }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('acquire' as const), client, permits }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('releaseHeld' as const), pick: fc.nat() }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('release' as const),
        client,
        permits: fc.integer({ min: 1, max: MOST - 1 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('addPermits' as const),
        client,
        permits: fc.integer({ min: -MOST + 1, max: MOST - 1 }).filter((n) => n !== 0),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drainPermits' as const), client }) },
  );
  return fc.oneof(
    { weight: 3, arbitrary: semaphoreStep(clients) },
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

/** Steps for a run on `clients` clients: acquisitions and releases of grants weigh the most. */
export function semaphoreStep(clients: number): fc.Arbitrary<SemaphoreStep> {
  const client = fc.integer({ min: 0, max: clients - 1 });
  const permits = fc.integer({ min: 0, max: MOST });
  return fc.oneof(
    { weight: 1, arbitrary: fc.record({ op: fc.constant('trySetPermits' as const), client, permits }) },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('tryAcquire' as const), client, permits }) },
    { weight: 3, arbitrary: fc.record({ op: fc.constant('acquire' as const), client, permits }) },
    { weight: 5, arbitrary: fc.record({ op: fc.constant('releaseHeld' as const), pick: fc.nat() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('release' as const),
        client,
        permits: fc.integer({ min: 0, max: MOST - 1 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('addPermits' as const),
        client,
        permits: fc.integer({ min: -MOST + 1, max: MOST - 1 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drainPermits' as const), client }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('availablePermits' as const), client }) },
  );
}

/** A step (of any model) as one line of a trace; an injected step as its fault and its operation. */
export function describeStep(step: { readonly op: string }): string {
  const { op, ...args } = step;
  if (op === 'inject' && 'step' in args && 'fault' in args)
    return `${String(args.fault)}:${describeStep(args.step as { readonly op: string })}`;
  return `${op}(${Object.entries(args)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(', ')})`;
}
