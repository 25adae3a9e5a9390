import type { FaultControls } from './controls.js';

/** Which requests a {@link RequestRule} matches. */
export interface RequestMatch {
  /**
   * A string the request's bytes must contain, e.g. a lock name, a key prefix such as
   * `redisson_unlock_latch:{orders}` or a script's SHA1. The empty string matches every request.
   */
  readonly marker: string;
  /**
   * Only requests with one of these command names (case-insensitive), e.g. `['EVALSHA', 'EVAL']`.
   * Default: any command.
   */
  readonly commands?: readonly string[];
}

/** Options of a cut-after-request rule: {@link RequestMatch} and what the cut does. */
export interface CutOptions extends RequestMatch {
  /** How many matching requests to cut; later matches pass untouched. Default 1. */
  readonly times?: number;
  /**
   * After each cut, partition the proxy that cut for this long (milliseconds), so that the
   * driver's reconnect and its re-send wait that long. Default: no partition.
   */
  readonly partitionMs?: number;
}

/**
 * A rule that fault proxies apply to the requests passing through them, in order. A plain rule
 * ({@link FaultControls.watchRequests}) only counts; a cut rule
 * ({@link FaultControls.cutAfterRequest}) also takes "shots": for each of its first `times`
 * matching requests, the proxy forwards the request to Redis, swallows Redis's reply and destroys
 * both sockets, so the request ran but the driver never learns its outcome (and a driver that
 * re-sends, like ioredis, sends it again after reconnecting). One rule may be shared by several
 * proxies (a cluster's); its shots and counts are then shared too.
 *
 * Connections in pub/sub or MONITOR mode are never matched: their replies cannot be paired with
 * requests.
 */
export class RequestRule {
  readonly #marker: Buffer;
  readonly #commands: ReadonlySet<string> | undefined;
  readonly #partitionMs: number | undefined;
  #shotsLeft: number;
  #seen = 0;
  #answered = 0;
  #cut = 0;
  #active = true;
  readonly #waiters = new Set<() => void>();

  /**
   * Use {@link FaultControls.cutAfterRequest} or {@link FaultControls.watchRequests}; a rule made
   * here takes effect once given to `FaultProxy.addRule`.
   *
   * @param options - what to match, and for a cut rule how often to cut and what to do after
   * @param cuts - `false` for a rule that only counts (its `times` is then 0)
   * @throws RangeError for a negative or fractional `times`, or a negative `partitionMs`
   */
  constructor(options: CutOptions, cuts: boolean) {
    const times = cuts ? (options.times ?? 1) : 0;
    if (!Number.isInteger(times) || times < 0) throw new RangeError(`times must be an integer >= 0, got ${times}`);
    if (options.partitionMs !== undefined && !(options.partitionMs >= 0)) {
      throw new RangeError(`partitionMs must be >= 0, got ${options.partitionMs}`);
    }
    this.#marker = Buffer.from(options.marker, 'utf8');
    this.#commands = options.commands && new Set(options.commands.map((name) => name.toUpperCase()));
    this.#partitionMs = options.partitionMs;
    this.#shotsLeft = times;
  }

  /** Matching requests that reached a proxy (cut or not), re-sent ones included. */
  get seen(): number {
    return this.#seen;
  }

  /** Matching requests whose reply went back to the client. */
  get answered(): number {
    return this.#answered;
  }

  /** Matching requests cut: run by Redis, reply swallowed, connection destroyed. */
  get cut(): number {
    return this.#cut;
  }

  /** Cuts still to come. */
  get shotsLeft(): number {
    return this.#shotsLeft;
  }

  /** `false` once {@link RequestRule.cancel}led: it matches nothing any more. */
  get active(): boolean {
    return this.#active;
  }

  /** Stops the rule: no more matches, cuts or counts. A cut in progress still completes. */
  cancel(): void {
    this.#active = false;
    this.#notify();
  }

  /**
   * Resolves once `condition` holds for this rule (checked now and after every change), or
   * rejects after `timeoutMs` (default 10 s) naming `description`.
   */
  async until(condition: (rule: RequestRule) => boolean, description = 'the rule reached its condition', timeoutMs = 10_000): Promise<void> {
    if (condition(this)) return;
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!condition(this)) return;
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(check);
        reject(new Error(`timed out after ${timeoutMs} ms waiting until ${description} (seen ${this.#seen}, cut ${this.#cut}, answered ${this.#answered})`));
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** For proxies: whether a request (its command name and whole frame) matches. */
  matches(command: string | undefined, request: Buffer): boolean {
    if (!this.#active) return false;
    if (this.#commands !== undefined && (command === undefined || !this.#commands.has(command))) return false;
    return this.#marker.length === 0 || request.includes(this.#marker);
  }

  /**
   * For proxies: counts a matching request and says whether to cut it, taking a shot when
   * `canCut` (the connection is not being cut already) and one is left.
   */
  admit(canCut: boolean): boolean {
    this.#seen++;
    const shoot = canCut && this.#shotsLeft > 0;
    if (shoot) this.#shotsLeft--;
    this.#notify();
    return shoot;
  }

  /** For proxies: the reply to a matching request went back to the client. */
  recordAnswered(): void {
    this.#answered++;
    this.#notify();
  }

  /** How long a proxy partitions itself after each cut of this rule; `undefined`: it does not. */
  get partitionMs(): number | undefined {
    return this.#partitionMs;
  }

  /** For proxies: a cut is done (and its partition, if any, has begun). */
  recordCut(): void {
    this.#cut++;
    this.#notify();
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }
}
