import type { Attributes, Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';
import { ATTR_LOCK_OUTCOME, type AcquisitionOutcome } from './attributes.js';
import type { TrackedHold } from './HoldBook.js';

/** The names of the instruments `instrumentLockClient` records, and what each counts. */
export const LOCK_METRICS = {
  /**
   * Histogram, seconds: how long each acquisition took, from the call to its outcome, by
   * `deadbolt.lock.outcome`. Fed by `acquired` (outcome `taken`, with or without a wait) and by
   * `waitEnded` for the other outcomes (a taken wait is counted once, by its `acquired`).
   */
  waitDuration: 'deadbolt.lock.wait.duration',
  /** Histogram, seconds: how long each hold lasted, from its grant to its release. Fed by `released`. */
  holdDuration: 'deadbolt.lock.hold.duration',
  /**
   * Counter, `{acquisition}`: acquisitions by `deadbolt.lock.outcome` (`taken`, `timed_out`,
   * `aborted`, `failed`). Fed like the wait duration.
   */
  acquisitions: 'deadbolt.lock.acquisitions',
  /**
   * UpDownCounter, `{hold}`: the holds this process has now. +1 on `acquired` (each re-entry is a
   * hold), −1 on `released` or `lockLost` of a hold granted since the instrumentation started.
   */
  held: 'deadbolt.lock.held',
  /** Counter, `{hold}`: holds the watchdog renewed (`renewed`: its `holds` minus the `lost` ones). */
  renewals: 'deadbolt.lock.renewals',
  /** Counter, `{batch}`: watchdog batches that could not reach Redis and are retried (`handledError` with operation `renew`). */
  renewalFailures: 'deadbolt.lock.renewal.failures',
  /** Counter, `{hold}`: holds found lost by the watchdog (`lockLost`), with the kind and name when the hold was seen granted. */
  losses: 'deadbolt.lock.losses',
} as const;

// Seconds, from a fast uncontended acquisition (about a millisecond) to an hour-long hold.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/** Records a client's events on the instruments of {@link LOCK_METRICS}. */
export class LockMetrics {
  readonly #waitDuration: Histogram;
  readonly #holdDuration: Histogram;
  readonly #acquisitions: Counter;
  readonly #held: UpDownCounter;
  readonly #renewals: Counter;
  readonly #renewalFailures: Counter;
  readonly #losses: Counter;

  constructor(meter: Meter) {
    const seconds = (description: string) => ({
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: BUCKETS },
    });
    this.#waitDuration = meter.createHistogram(
      LOCK_METRICS.waitDuration,
      seconds('Time from an acquisition call to its outcome'),
    );
    this.#holdDuration = meter.createHistogram(LOCK_METRICS.holdDuration, seconds('Time from a grant to its release'));
    this.#acquisitions = meter.createCounter(LOCK_METRICS.acquisitions, {
      unit: '{acquisition}',
      description: 'Acquisitions by outcome',
    });
    this.#held = meter.createUpDownCounter(LOCK_METRICS.held, {
      unit: '{hold}',
      description: 'Holds this process has',
    });
    this.#renewals = meter.createCounter(LOCK_METRICS.renewals, {
      unit: '{hold}',
      description: 'Holds the watchdog renewed',
    });
    this.#renewalFailures = meter.createCounter(LOCK_METRICS.renewalFailures, {
      unit: '{batch}',
      description: 'Watchdog batches that could not reach Redis',
    });
    this.#losses = meter.createCounter(LOCK_METRICS.losses, { unit: '{hold}', description: 'Holds found lost' });
  }

  /** An acquisition ended with `outcome` after `waitedMs`; a taken one is a hold more. */
  acquisition(outcome: AcquisitionOutcome, waitedMs: number, lock: Attributes): void {
    const attributes = { ...lock, [ATTR_LOCK_OUTCOME]: outcome };
    this.#waitDuration.record(waitedMs / 1000, attributes);
    this.#acquisitions.add(1, attributes);
    if (outcome === 'taken') this.#held.add(1, lock);
  }

  /** A hold was released after `heldMs`; `hold` when it was seen granted, and counted as held. */
  released(heldMs: number, lock: Attributes, hold: TrackedHold | undefined): void {
    this.#holdDuration.record(heldMs / 1000, lock);
    if (hold) this.#held.add(-1, hold.attributes);
  }

  /** A watchdog batch renewed `holds`, of which `lost` were found gone. */
  renewed(holds: number, lost: number): void {
    this.#renewals.add(holds - lost);
  }

  /** A watchdog batch could not reach Redis. */
  renewalFailed(): void {
    this.#renewalFailures.add(1);
  }

  /** A hold was lost; `hold` when it was seen granted (else its kind is not known). */
  lost(hold: TrackedHold | undefined): void {
    this.#losses.add(1, hold?.attributes ?? {});
    if (hold) this.#held.add(-1, hold.attributes);
  }
}
