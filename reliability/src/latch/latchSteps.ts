import fc from 'fast-check';
import { INJECTED_FAULTS, type InjectedFault } from '../faults/modelFaults.js';

/** One step of a latch model run: an operation of `CountDownLatch`'s API on one of the run's clients. */
export type LatchStep =
  | { readonly op: 'trySetCount'; readonly client: number; readonly count: number }
  | { readonly op: 'countDown'; readonly client: number }
  | { readonly op: 'getCount'; readonly client: number }
  /** `await({ waitTime })` with a short wait: `true` only when the latch is open. */
  | { readonly op: 'await'; readonly client: number }
  | { readonly op: 'delete'; readonly client: number }
  /**
   * An `await` left running in the background, on the first client, through the steps that
   * follow (aborted at the run's end): it may resolve `true` only once the latch was open.
   */
  | { readonly op: 'waitInBackground' }
  /** `step` on the proxied client (the last one), with `fault` injected into its request. */
  | { readonly op: 'inject'; readonly fault: InjectedFault; readonly step: MutatingLatchStep };

/** The steps that change a latch: what an injected fault targets. */
export type MutatingLatchStep = Extract<LatchStep, { readonly op: 'trySetCount' | 'countDown' | 'delete' }>;

// The largest count a step sets: small, so that count-downs reach zero within a run.
const MOST = 3;

/** Steps for a run on `clients` clients: count-downs weigh the most, so that latches open. */
export function latchStep(clients: number): fc.Arbitrary<LatchStep> {
  const client = fc.integer({ min: 0, max: clients - 1 });
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant('trySetCount' as const),
        client,
        count: fc.integer({ min: 0, max: MOST }),
      }),
    },
    { weight: 5, arbitrary: fc.record({ op: fc.constant('countDown' as const), client }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('getCount' as const), client }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('await' as const), client }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), client }) },
    { weight: 2, arbitrary: fc.constant({ op: 'waitInBackground' as const }) },
  );
}

/**
 * Steps for a run on `clients` clients whose last one is proxied: {@link latchStep}'s, and one in
 * four injects a late copy or a cut into a change made on the proxied client.
 */
export function faultyLatchStep(clients: number): fc.Arbitrary<LatchStep> {
  const client = fc.constant(clients - 1);
  const target: fc.Arbitrary<MutatingLatchStep> = fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('trySetCount' as const),
        client,
        count: fc.integer({ min: 1, max: MOST }),
      }),
    },
    { weight: 4, arbitrary: fc.record({ op: fc.constant('countDown' as const), client }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), client }) },
  );
  return fc.oneof(
    { weight: 3, arbitrary: latchStep(clients) },
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
