import type {
  Attributes,
  Counter,
  Histogram,
  MeterProvider,
  ObservableCallback,
  ObservableUpDownCounter,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_LOCK_LOSS_REASON,
  ATTR_LOCK_OUTCOME,
  errorType,
  type AcquisitionOutcome,
  type LossReason,
} from './attributes.js';
import type { TrackedHold } from './HoldBook.js';
import { Tally } from './Tally.js';
import { INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION } from './scope.js';

/** The names of the instruments `instrumentLockClient` records, and what each counts. */
export const LOCK_METRICS = {
  /**
   * Histogram, seconds: how long each acquisition took, from the call to its outcome, by
   * `deadbolt.lock.outcome`, with `error.type` (the error's class name) on a `failed` one. Fed
   * by `acquired` (outcome `taken`, with or without a wait) and by `waitEnded` for the other
   * outcomes (a taken wait is counted once, by its `acquired`).
   */
  waitDuration: 'deadbolt.lock.wait.duration',
  /** Histogram, seconds: how long each hold lasted, from its grant to its release. Fed by `released`. */
  holdDuration: 'deadbolt.lock.hold.duration',
  /**
   * Counter, `{acquisition}`: acquisitions by `deadbolt.lock.outcome` (`taken`, `timed_out`,
   * `aborted`, `failed`, the last with `error.type`). Fed like the wait duration.
   */
  acquisitions: 'deadbolt.lock.acquisitions',
  /**
   * UpDownCounter (asynchronous), `{acquisition}`: the acquisitions of this process waiting for
   * a lock now, by kind. +1 on `waitStarted`, −1 on its `waitEnded`.
   */
  waiting: 'deadbolt.lock.waiting',
  /**
   * UpDownCounter (asynchronous), `{hold}`: the holds this process has now. +1 on `acquired`
   * (each re-entry is a hold), −1 on `released` or `lockLost` of a hold granted since the
   * instrumentation started: every hold ends in exactly one of them, so a count that only grows
   * is holds never released.
   */
  held: 'deadbolt.lock.held',
  /** Counter, `{hold}`: holds the watchdog renewed (`renewed`: its `holds` minus the `lost` ones). */
  renewals: 'deadbolt.lock.renewals',
  /** Histogram, seconds: the round trip of each watchdog batch that reached Redis (`renewed`'s `tookMs`). */
  renewalDuration: 'deadbolt.lock.renewal.duration',
  /**
   * Counter, `{batch}`: watchdog batches that could not reach Redis and are retried (`handledError`
   * with operation `renew`), with `error.type`.
   */
  renewalFailures: 'deadbolt.lock.renewal.failures',
  /**
   * Counter, `{hold}`: holds lost (`lockLost`), by `deadbolt.lock.loss_reason` (see
   * {@link LossReason}: `lease_ended` is a fixed lease that ran out under its holder, the rest are
   * locks that went), with the kind and name when the hold was seen granted.
   */
  losses: 'deadbolt.lock.losses',
} as const;

// Seconds, from a fast uncontended acquisition (about a millisecond) to an hour-long hold.
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];
// Seconds, for one round trip to Redis: from a local server's fraction of a millisecond to a stall.
const ROUND_TRIP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The instruments of one meter, and how to take the observed ones' callbacks off it. */
interface Instruments {
  readonly provider: MeterProvider;
  readonly waitDuration: Histogram;
  readonly holdDuration: Histogram;
  readonly acquisitions: Counter;
  readonly renewals: Counter;
  readonly renewalDuration: Histogram;
  readonly renewalFailures: Counter;
  readonly losses: Counter;
  readonly unobserve: () => void;
}

/**
 * Records a client's events on the instruments of {@link LOCK_METRICS}. The meter is looked up at
 * each record, not once: `@opentelemetry/api` has no proxy meter, so a meter taken from the
 * global provider before the SDK registers its own would record nothing, ever. Looked up late,
 * what is recorded once the SDK has started arrives (what was recorded before it is lost).
 */
export class LockMetrics {
  readonly #provider: () => MeterProvider;
  readonly #held = new Tally();
  readonly #waiting = new Tally();
  #current: Instruments | undefined;

  /** @param provider - the meter provider to record on now: the global one is asked at each record */
  constructor(provider: () => MeterProvider) {
    this.#provider = provider;
  }

  /** An acquisition ended with `outcome` after `waitedMs`; `error` for a failed one. A taken one is a hold more. */
  acquisition(outcome: AcquisitionOutcome, waitedMs: number, lock: Attributes, error?: unknown): void {
    const { waitDuration, acquisitions } = this.#instruments();
    const attributes =
      outcome === 'failed'
        ? { ...lock, [ATTR_LOCK_OUTCOME]: outcome, [ATTR_ERROR_TYPE]: errorType(error) }
        : { ...lock, [ATTR_LOCK_OUTCOME]: outcome };
    waitDuration.record(waitedMs / 1000, attributes);
    acquisitions.add(1, attributes);
    if (outcome === 'taken') this.#held.add(lock, 1);
  }

  /** An acquisition of `lock` started waiting (+1), or its wait ended (−1). */
  waiting(lock: Attributes, delta: 1 | -1): void {
    // Only to follow a change of meter: the count itself is observed at collection.
    this.#instruments();
    this.#waiting.add(lock, delta);
  }

  /** A hold was released after `heldMs`; `hold` when it was seen granted, and counted as held. */
  released(heldMs: number, lock: Attributes, hold: TrackedHold | undefined): void {
    this.#instruments().holdDuration.record(heldMs / 1000, lock);
    if (hold) this.#held.add(hold.attributes, -1);
  }

  /** A watchdog batch renewed `holds` in `tookMs`, of which `lost` were found gone. */
  renewed(holds: number, lost: number, tookMs: number): void {
    const { renewals, renewalDuration } = this.#instruments();
    renewals.add(holds - lost);
    renewalDuration.record(tookMs / 1000);
  }

  /** A watchdog batch could not reach Redis, with `error`. */
  renewalFailed(error: unknown): void {
    this.#instruments().renewalFailures.add(1, { [ATTR_ERROR_TYPE]: errorType(error) });
  }

  /** A hold was lost for `reason`; `hold` when it was seen granted (else its kind is not known). */
  lost(reason: LossReason, hold: TrackedHold | undefined): void {
    this.#instruments().losses.add(1, { ...hold?.attributes, [ATTR_LOCK_LOSS_REASON]: reason });
    if (hold) this.#held.add(hold.attributes, -1);
  }

  /** Stops reporting the held and waiting counts. */
  stop(): void {
    this.#current?.unobserve();
    this.#current = undefined;
  }

  // The instruments of the provider of now: new ones when it changed (the SDK started since).
  #instruments(): Instruments {
    const provider = this.#provider();
    if (this.#current?.provider === provider) return this.#current;
    this.#current?.unobserve();
    this.#current = this.#create(provider);
    return this.#current;
  }

  #create(provider: MeterProvider): Instruments {
    const meter = provider.getMeter(INSTRUMENTATION_SCOPE, INSTRUMENTATION_VERSION);
    const duration = (description: string, buckets: number[]) => ({
      unit: 's',
      description,
      advice: { explicitBucketBoundaries: buckets },
    });
    const observed = (instrument: ObservableUpDownCounter, tally: Tally) => {
      const callback: ObservableCallback = (result) => tally.observe(result);
      instrument.addCallback(callback);
      return () => instrument.removeCallback(callback);
    };
    const waitDuration = meter.createHistogram(
      LOCK_METRICS.waitDuration,
      duration('Time from an acquisition call to its outcome', BUCKETS),
    );
    const holdDuration = meter.createHistogram(
      LOCK_METRICS.holdDuration,
      duration('Time from a grant to its release', BUCKETS),
    );
    const acquisitions = meter.createCounter(LOCK_METRICS.acquisitions, {
      unit: '{acquisition}',
      description: 'Acquisitions by outcome',
    });
    const unobserveWaiting = observed(
      meter.createObservableUpDownCounter(LOCK_METRICS.waiting, {
        unit: '{acquisition}',
        description: 'Acquisitions waiting for a lock',
      }),
      this.#waiting,
    );
    const unobserveHeld = observed(
      meter.createObservableUpDownCounter(LOCK_METRICS.held, { unit: '{hold}', description: 'Holds this process has' }),
      this.#held,
    );
    return {
      provider,
      waitDuration,
      holdDuration,
      acquisitions,
      renewals: meter.createCounter(LOCK_METRICS.renewals, {
        unit: '{hold}',
        description: 'Holds the watchdog renewed',
      }),
      renewalDuration: meter.createHistogram(
        LOCK_METRICS.renewalDuration,
        duration('Round trip of a watchdog renewal batch', ROUND_TRIP_BUCKETS),
      ),
      renewalFailures: meter.createCounter(LOCK_METRICS.renewalFailures, {
        unit: '{batch}',
        description: 'Watchdog batches that could not reach Redis',
      }),
      losses: meter.createCounter(LOCK_METRICS.losses, { unit: '{hold}', description: 'Holds found lost' }),
      unobserve: () => {
        unobserveWaiting();
        unobserveHeld();
      },
    };
  }
}
