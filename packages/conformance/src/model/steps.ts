import fc from 'fast-check';
import type { ModelTiming } from './timing.js';

/**
 * Who an acquisition or a query names as owner:
 * - `none`: no `owner` option (a fresh generated owner, or the enclosing `withLock` scope's);
 * - `named`: a user's owner name, from a small pool shared by the clients (`'1'` and `'2'` look
 *   like the generated ids of old);
 * - `reuse`: the `owner` of one of the run's holds, passed back on that hold's client;
 * - `forged`: a `#<n>` id that no hold uses, which must be refused.
 */
export type OwnerChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'reuse'; readonly hold: number }
  | { readonly kind: 'forged'; readonly n: number };

/** Which lock of a read-write lock a step uses; other kinds ignore it. */
export type HalfChoice = 'read' | 'write';

/** How an acquisition is made. */
export interface AcquireSpec {
  readonly client: number;
  readonly half: HalfChoice;
  readonly owner: OwnerChoice;
  /** `undefined`: the watchdog keeps the hold alive. */
  readonly leaseTime: number | undefined;
  /** `undefined`: no `waitTime` option (`tryAcquire`: one attempt; `acquire`: only for a free lock, see below). */
  readonly waitTime: number | undefined;
}

/**
 * One step of a model run. Holds are named by an index into the run's list of holds (modulo its
 * length), so that a step keeps a meaning when fast-check shrinks the sequence around it.
 */
export type Step =
  | ({ readonly kind: 'acquire'; readonly call: 'acquire' | 'tryAcquire' } & AcquireSpec)
  | ({ readonly kind: 'withLock'; readonly body: readonly Step[] } & AcquireSpec)
  | { readonly kind: 'release'; readonly hold: number }
  | { readonly kind: 'extend'; readonly hold: number; readonly ms: number }
  | { readonly kind: 'forceUnlock'; readonly client: number; readonly half: HalfChoice }
  | { readonly kind: 'sleep'; readonly ms: number }
  | {
      readonly kind: 'query';
      readonly client: number;
      readonly half: HalfChoice;
      readonly query: 'holdCount' | 'isLocked' | 'isHeldBy';
      readonly owner: OwnerChoice;
    };

/**
 * The named owners steps choose from; `MODEL_NAMED_OWNERS` (comma-separated) replaces them, e.g.
 * to look past generated ids that named ones collide with.
 */
const NAMED_OWNERS: readonly string[] = process.env['MODEL_NAMED_OWNERS']?.split(',').filter(Boolean) ?? [
  'w1',
  'w2',
  '1',
  '2',
];

/** Builds the arbitraries of steps for `clients` clients with `timing`. */
export function stepArbitraries(clients: number, timing: ModelTiming) {
  const client = fc.integer({ min: 0, max: clients - 1 });
  const hold = fc.nat({ max: 50 });
  const half = fc.constantFrom<HalfChoice>('read', 'write');
  const owner: fc.Arbitrary<OwnerChoice> = fc.oneof(
    { weight: 5, arbitrary: fc.constant<OwnerChoice>({ kind: 'none' }) },
    { weight: 3, arbitrary: fc.constantFrom(...NAMED_OWNERS).map((name): OwnerChoice => ({ kind: 'named', name })) },
    { weight: 2, arbitrary: hold.map((index): OwnerChoice => ({ kind: 'reuse', hold: index })) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 900_000, max: 999_999 }).map((n): OwnerChoice => ({ kind: 'forged', n })),
    },
  );
  const leaseTime = fc.option(fc.constantFrom(...timing.leases), { nil: undefined, freq: 3 });
  const waitTime = fc.option(fc.constantFrom(...timing.waits), { nil: undefined, freq: 2 });
  const spec = fc.record({ client, half, owner, leaseTime, waitTime });

  const acquire = fc
    .tuple(fc.constantFrom<'acquire' | 'tryAcquire'>('acquire', 'tryAcquire'), spec)
    .map(([call, s]): Step => ({ kind: 'acquire', call, ...s }));
  const simple: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: acquire },
    { weight: 4, arbitrary: hold.map((index): Step => ({ kind: 'release', hold: index })) },
    {
      weight: 2,
      arbitrary: fc
        .record({ hold, ms: fc.constantFrom(...timing.extends) })
        .map((s): Step => ({ kind: 'extend', ...s })),
    },
    { weight: 1, arbitrary: fc.record({ client, half }).map((s): Step => ({ kind: 'forceUnlock', ...s })) },
    { weight: 2, arbitrary: fc.constantFrom(...timing.sleeps).map((ms): Step => ({ kind: 'sleep', ms })) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          client,
          half,
          owner,
          query: fc.constantFrom<'holdCount' | 'isLocked' | 'isHeldBy'>('holdCount', 'isLocked', 'isHeldBy'),
        })
        .map((s): Step => ({ kind: 'query', ...s })),
    },
  );
  // withLock nests up to two levels; its body is a short sequence of the same steps.
  const { step } = fc.letrec<{ step: Step; withLock: Step }>((tie) => ({
    step: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 12, arbitrary: simple },
      { weight: 2, arbitrary: tie('withLock') },
    ),
    withLock: fc
      .record({ spec, body: fc.array(tie('step'), { minLength: 1, maxLength: 4, depthIdentifier: 'withLock' }) })
      .map(({ spec: s, body }): Step => ({ kind: 'withLock', ...s, body })),
  }));
  return { step };
}

/** A short text for a step, for traces. */
export function describeStep(step: Step): string {
  const ownerText = (owner: OwnerChoice) =>
    owner.kind === 'none'
      ? 'owner=∅'
      : owner.kind === 'named'
        ? `owner='${owner.name}'`
        : owner.kind === 'reuse'
          ? `owner=hold[${owner.hold}]`
          : `owner='#${owner.n}'`;
  switch (step.kind) {
    case 'acquire':
    case 'withLock': {
      const call = step.kind === 'acquire' ? step.call : 'withLock';
      const lease = step.leaseTime === undefined ? 'watchdog' : `lease=${step.leaseTime}`;
      const wait = step.waitTime === undefined ? '' : ` wait=${step.waitTime}`;
      return `c${step.client}.${step.half}.${call}(${ownerText(step.owner)} ${lease}${wait})`;
    }
    case 'release':
      return `hold[${step.hold}].release()`;
    case 'extend':
      return `hold[${step.hold}].extend(${step.ms})`;
    case 'forceUnlock':
      return `c${step.client}.${step.half}.forceUnlock()`;
    case 'sleep':
      return `sleep(${step.ms})`;
    case 'query':
      return `c${step.client}.${step.half}.${step.query}(${ownerText(step.owner)})`;
  }
}
