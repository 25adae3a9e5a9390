// eslint-disable-next-line @typescript-eslint/no-unused-vars -- imported for the TSDoc {@link FaultControls...} only
import type { FaultControls } from './controls.js';
import { RequestRule, type RequestMatch } from './request-rule.js';

/** Options of a hold rule ({@link FaultControls.holdRequest}): {@link RequestMatch} and how it holds. */
export interface HoldOptions extends RequestMatch {
  /** How many matching requests to hold; later matches pass untouched. Default 1. */
  readonly times?: number;
  /**
   * How long the client's side of the connection stays open after a request was held, stalled
   * (what the client sends after the held request is dropped, nothing comes back), in
   * milliseconds; then it is closed, as a dropped connection looks to the driver: ioredis sends
   * again what it had not had answered, on a new connection, while node-redis and Valkey GLIDE
   * reject it. Default 0: closed at once, once the replies to the requests before the held one
   * went back. A stall longer than the library's `commandTimeout` makes the call time out first.
   */
  readonly dropClientAfterMs?: number;
  /**
   * Lets the request through at once as well, as a cut does (Redis runs it, its reply is
   * swallowed and the client's side closed), and holds a copy of it: `deliver()` then makes the
   * one request arrive twice, the second time late, on its old connection. What ioredis does
   * after a long partition (it re-sends), for the drivers that do not. Default `false`.
   */
  readonly duplicate?: boolean;
}

/** For proxies: one request a hold rule kept back, on the connection to Redis it came in for. */
export interface HeldRequest {
  /** `true` while its bytes are kept and its connection to Redis is open: it can be delivered. */
  readonly deliverable: boolean;
  /**
   * Writes the request to Redis on its connection, and resolves with Redis's reply, which goes
   * no further; the connection is closed once it came. Rejects when the connection closed first.
   */
  deliver(): Promise<Buffer>;
}

/**
 * A hold rule ({@link FaultControls.holdRequest}): for each of its first `times` matching
 * requests, the proxy forwards the requests before it and their replies, keeps the matching
 * request's bytes from Redis (or, with `duplicate`, lets it run and keeps a copy), sends nothing
 * more from that client connection to Redis, and closes the client's side (at once, or after
 * `dropClientAfterMs`), so the driver never learns an outcome: the call times out or fails with
 * the connection, and the driver (ioredis) may send it again on a new connection. The connection to Redis it came in for stays open, whatever the
 * client does (a partition or a reset of the proxy included), until the test calls
 * {@link RequestHold.deliver}: the request then reaches Redis late, on the old connection, as a
 * slow network or a stalled proxy delivers it. Redis's reply to the late copy is given to the
 * test, not to the client, and the old connection is closed once it came. Closing the proxy
 * drops what is still held. One rule may be shared by several proxies (a cluster's).
 */
export class RequestHold extends RequestRule {
  /** See {@link HoldOptions.dropClientAfterMs}. */
  readonly dropClientAfterMs: number;
  /** See {@link HoldOptions.duplicate}. */
  readonly duplicate: boolean;
  readonly #held: HeldRequest[] = [];
  #delivered = 0;

  /**
   * Use {@link FaultControls.holdRequest}; a rule made here takes effect once given to
   * `FaultProxy.addRule`.
   *
   * @throws RangeError for a negative or fractional `times`, or a negative or non-finite `dropClientAfterMs`
   */
  constructor(options: HoldOptions) {
    super(
      {
        marker: options.marker,
        ...(options.commands ? { commands: options.commands } : {}),
        times: options.times ?? 1,
      },
      'hold',
    );
    const dropAfter = options.dropClientAfterMs ?? 0;
    if (!(Number.isFinite(dropAfter) && dropAfter >= 0))
      throw new RangeError(`dropClientAfterMs must be a finite number >= 0, got ${dropAfter}`);
    this.dropClientAfterMs = dropAfter;
    this.duplicate = options.duplicate ?? false;
  }

  /** Requests held now, that {@link RequestHold.deliver} would deliver (with `duplicate`: counted once the first run's reply came). */
  get held(): number {
    return this.#held.filter((request) => request.deliverable).length;
  }

  /** Requests delivered so far, whose late reply came back. */
  get delivered(): number {
    return this.#delivered;
  }

  /**
   * Delivers every request held now, each on its own old connection, in the order they were
   * held, and resolves with Redis's replies in that order: the raw RESP frames, in the protocol
   * the connection speaks (an error reply starts with `-`), which the client never sees.
   *
   * @throws Error when nothing is held, or when a held request's connection to Redis closed
   *   before its reply came
   */
  async deliver(): Promise<Buffer[]> {
    const requests = this.#held.splice(0).filter((request) => request.deliverable);
    if (requests.length === 0)
      throw new Error(`fault proxy: no request is held to deliver (matching requests seen: ${this.seen})`);
    const replies = await Promise.all(requests.map((request) => request.deliver()));
    this.#delivered += replies.length;
    this.notify();
    return replies;
  }

  /** For proxies: a request was held, to be delivered by `request`. */
  recordHeld(request: HeldRequest): void {
    this.#held.push(request);
    this.notify();
  }
}
