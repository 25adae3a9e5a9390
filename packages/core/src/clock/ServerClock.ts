import { askServer } from '../executor/askServer.js';
import type { Executor } from '../executor/Executor.js';

/**
 * How long an estimate of the server's clock is trusted before it is learned again in the
 * background: the client's monotonic clock and the server's wall clock drift apart (NTP may slew
 * a clock by up to 500 ppm, 30 ms a minute), and a deadline is only as good as the estimate.
 */
const REFRESH_AFTER_MS = 60_000;
const MS_PER_SECOND = 1_000;
const US_PER_MS = 1_000;

/**
 * The client's estimate of the server's clock, for the deadline every state-changing request
 * carries (see `request-deadline.lua`). Learned with `TIME` on the connection of the first key
 * asked about, and again once a minute or whenever Redis refuses a request as late.
 *
 * The estimate errs late, never early: a `TIME` reply was read by the server somewhere between the
 * probe's send and its reply, so the server's time now is at most the reply plus what has passed
 * since the probe was *sent*. A deadline built on it is therefore never earlier than the request's
 * send plus the window on the server's clock, and later by at most the probe's round trip (itself
 * bounded by `commandTimeout`) and the drift since. Safety never rests on the estimate: a script
 * keeps what recognises a copy until the deadline on the server's own clock.
 */
export class ServerClock {
  readonly #executor: Executor;
  readonly #probeTimeout: number;
  // server time (ms) minus monotonic time (ms) at the probe's send: the late-erring offset.
  #offset: number | undefined;
  #learnedAt = -Infinity;
  #probing: Promise<void> | undefined;

  constructor(executor: Executor, probeTimeout: number) {
    this.#executor = executor;
    this.#probeTimeout = probeTimeout;
  }

  /** Whether an estimate is known (a deadline can be made without waiting). */
  get known(): boolean {
    return this.#offset !== undefined;
  }

  /**
   * The server-clock time `window` ms after now, as late as the server's clock can be now.
   * Learns the clock again in the background when the estimate is old.
   *
   * @throws Error when no estimate was learned yet (call {@link ServerClock.learn} first)
   */
  deadline(window: number, key: string): number {
    const now = performance.now();
    if (this.#offset === undefined) throw new Error('ServerClock.deadline before the clock was learned');
    if (now - this.#learnedAt > REFRESH_AFTER_MS) this.relearn(key);
    return Math.ceil(now + this.#offset + window);
  }

  /** Learns the server's clock on `key`'s connection; resolves once an estimate is known. */
  learn(key: string): Promise<void> {
    if (this.#offset !== undefined) return Promise.resolve();
    return this.#probe(key);
  }

  /**
   * Learns the clock again in the background (a request was refused as late, or the estimate is
   * old); a failure keeps the old estimate.
   */
  relearn(key: string): void {
    this.#learnedAt = performance.now();
    this.#probe(key).catch(() => undefined);
  }

  #probe(key: string): Promise<void> {
    this.#probing ??= this.#ask(key).finally(() => (this.#probing = undefined));
    return this.#probing;
  }

  async #ask(key: string): Promise<void> {
    const sentAt = performance.now();
    const reply = await askServer(this.#executor, key, ['TIME'], this.#probeTimeout, "TIME (the server clock's probe)");
    this.#offset = serverMs(reply) - sentAt;
    this.#learnedAt = sentAt;
  }
}

/** The milliseconds of a `TIME` reply, `[seconds, microseconds]`. */
export function serverMs(reply: unknown): number {
  const [seconds, micros] = Array.isArray(reply) ? reply.map(Number) : [];
  if (seconds === undefined || micros === undefined || !Number.isFinite(seconds) || !Number.isFinite(micros)) {
    throw new Error(`Unexpected TIME reply: ${JSON.stringify(reply)}`);
  }
  return seconds * MS_PER_SECOND + Math.floor(micros / US_PER_MS);
}
