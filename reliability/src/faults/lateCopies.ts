// The two ways the fault proxy makes a copy of a request reach Redis late (issue 30), shared by
// the hammers' faults and the model-based tests' injected steps:
//
// - a late delivery: the proxy lets the request run, swallows its reply, drops the client's
//   connection and keeps a copy, which the test delivers on the old connection later than twice
//   the client's commandTimeout: past the request's deadline (the client's estimate of the
//   server's time at the send, erring late by less than commandTimeout, plus commandTimeout), so
//   the script must refuse it. Every driver gets one: the copy is the proxy's, not the driver's.
//   ioredis also re-sends the request at once on its new connection (a copy within the deadline,
//   which the request record recognises); node-redis and Valkey GLIDE fail the call, and the
//   client sends the request again under the same id (LockRuntime.runOnce) where it counts once.
// - a cut, then a partition longer than any request record lives (the deadline plus twice
//   commandTimeout): ioredis re-sends the request after it reconnects, later than every record
//   of it; node-redis and GLIDE fail it (the outcome is unknown to the client) and send nothing.
import {
  sleep,
  type FaultControls,
  type RequestHold,
  type RequestMatch,
  type RequestRule,
} from '@deadbolt/test-harness';
import { monotonicMicros } from '../clock.js';

/** Script calls: what the proxy holds or cuts of a lock's or a semaphore's requests. */
export const SCRIPT_COMMANDS: readonly string[] = ['EVALSHA', 'EVAL'];

// Past the deadline by this much more than twice commandTimeout: timers fire late on a loaded machine.
const LATE_MARGIN_MS = 150;
// The partition outlasts every record of the request (its deadline plus twice commandTimeout) by this much.
const PARTITION_MARGIN_MS = 200;
// How long a re-send may take to come after the heal: ioredis reconnects within its retry delay
// (at most 2 s by its default strategy), then sends what it had not had answered first.
const RESEND_TIMEOUT_MS = 5_000;
// How long to look for a re-send from a driver that is not expected to send one.
const RESEND_GRACE_MS = 300;
// What a script raises for a request past its deadline (request-deadline.lua).
const REFUSED_AS_LATE = 'DEADBOLT_LATE';

/** How long after a copy was held it is delivered: later than twice commandTimeout. */
export function lateDeliveryDelay(commandTimeout: number): number {
  return 2 * commandTimeout + LATE_MARGIN_MS;
}

/** How long the proxy refuses connections after a cut: longer than the request's deadline and its record (3 × commandTimeout). */
export function longPartitionMs(commandTimeout: number): number {
  return 3 * commandTimeout + PARTITION_MARGIN_MS;
}

/** What a late delivery came to. */
export interface LateDelivery {
  /** Copies delivered late (0 when no request matched). */
  readonly delivered: number;
  /** Of those, copies Redis refused as past their deadline (`DEADBOLT_LATE`). */
  readonly refused: number;
  /** Redis's replies to the copies, as text (the client never saw them). */
  readonly replies: readonly string[];
  /** The copies as they were sent, as text, for a failure message. */
  readonly requests: readonly string[];
}

/** What a cut with a long partition came to. */
export interface LongCut {
  /** Requests cut (0 when none matched). */
  readonly cut: number;
  /** Copies of the cut request that reached the proxy after the partition: the driver's re-sends. */
  readonly resent: number;
  /** When the cut was seen and when the partition healed, in monotonic microseconds. */
  readonly from: number;
  readonly to: number;
}

/**
 * Holds a copy of the next request matching `match` (it runs once now) and, once
 * {@link LateCopy.deliverLate} is called, delivers it later than twice `commandTimeout` after it
 * was held.
 */
export class LateCopy {
  readonly #rule: RequestHold;
  readonly #commandTimeout: number;

  constructor(proxies: FaultControls, match: RequestMatch, commandTimeout: number) {
    this.#rule = proxies.holdRequest({ ...match, duplicate: true });
    this.#commandTimeout = commandTimeout;
  }

  /** Whether a request matched the rule (it is held, or about to be). */
  get matched(): boolean {
    return this.#rule.seen > 0;
  }

  /**
   * Waits (at most `timeoutMs`) for a request to be held; resolves then, with the time it was
   * seen held (`performance.now()`). Rejects when none was held in time.
   */
  async held(timeoutMs: number): Promise<number> {
    try {
      await this.#rule.until((rule) => rule.held > 0, 'a request was held for a late delivery', timeoutMs);
    } catch (error) {
      this.#rule.cancel();
      throw error;
    }
    // No earlier than it was held: the delay counts from when the test saw it, which errs late.
    return performance.now();
  }

  /**
   * Waits (at most `timeoutMs`) for a request to be held, then until it is late, delivers it and
   * says what Redis replied. Rejects when none was held in time.
   */
  async deliverLate(timeoutMs: number, heldAt?: number): Promise<LateDelivery> {
    try {
      const since = heldAt ?? (await this.held(timeoutMs));
      await sleep(Math.max(0, since + lateDeliveryDelay(this.#commandTimeout) - performance.now()));
      const replies = (await this.#rule.deliver()).map((reply) => reply.toString('utf8').trim());
      const requests = this.#rule.requests.map((request) => request.toString('utf8').replace(/\r\n/g, ' '));
      return {
        delivered: replies.length,
        refused: replies.filter((reply) => reply.startsWith(`-${REFUSED_AS_LATE}`)).length,
        replies,
        requests,
      };
    } finally {
      this.#rule.cancel();
    }
  }

  /** Stops holding; what is held stays undelivered (the proxy drops it when closed). */
  cancel(): void {
    this.#rule.cancel();
  }
}

/**
 * Cuts the next request matching `match` after Redis ran it and partitions the proxies for
 * {@link longPartitionMs}; {@link PartitionedCut.healed} then waits for the heal and counts the
 * driver's re-sends of the cut request.
 */
export class PartitionedCut {
  readonly #proxies: FaultControls;
  readonly #rule: RequestRule;

  constructor(proxies: FaultControls, match: RequestMatch, commandTimeout: number) {
    this.#proxies = proxies;
    this.#rule = proxies.cutAfterRequest({ ...match, partitionMs: longPartitionMs(commandTimeout) });
  }

  /** Whether a request matched the rule (it is cut, or about to be). */
  get matched(): boolean {
    return this.#rule.seen > 0;
  }

  /**
   * Waits (at most `timeoutMs`) for the cut, then for the partition to heal, then for the
   * driver to re-send the request (when `resendExpected`, at most {@link RESEND_TIMEOUT_MS};
   * otherwise a short look), and counts the re-sends. Rejects when nothing was cut in time.
   */
  async healed(resendExpected: boolean, timeoutMs: number): Promise<LongCut> {
    let watch: RequestRule | undefined;
    try {
      await this.#rule.until((rule) => rule.cut > 0, 'a request was cut before a long partition', timeoutMs);
      // When the test saw the cut: at or after it (the partition began with it).
      const from = monotonicMicros();
      const [request] = this.#rule.requests;
      // Armed during the partition: nothing can be re-sent before the heal.
      watch = request === undefined ? undefined : this.#proxies.watchRequests({ marker: request });
      await this.#proxies.whenHealed();
      const to = monotonicMicros();
      if (watch !== undefined) {
        if (resendExpected)
          await watch
            .until((rule) => rule.seen > 0, 'the cut request was sent again', RESEND_TIMEOUT_MS)
            .catch(() => undefined);
        else await sleep(RESEND_GRACE_MS);
      }
      return { cut: this.#rule.cut, resent: watch?.seen ?? 0, from, to };
    } finally {
      this.#rule.cancel();
      watch?.cancel();
    }
  }

  /** Stops cutting. */
  cancel(): void {
    this.#rule.cancel();
  }
}
