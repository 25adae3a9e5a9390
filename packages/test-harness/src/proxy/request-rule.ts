// eslint-disable-next-line @typescript-eslint/no-unused-vars -- imported for the TSDoc {@link FaultControls...} only
import type { FaultControls } from './controls.js';

/** Which requests a {@link RequestRule} matches. */
export interface RequestMatch {
  /**
   * A string the request's bytes must contain, e.g. a lock name, a key prefix such as
   * `redisson_lock__channel:{orders}` or a script's SHA1; or several, every one of which it must
   * contain (a lock name and a distinctive argument, say). The empty string matches every request.
   * Bytes match as they are (a request a rule took a shot at, from {@link RequestRule.requests}:
   * its re-sends); a string matches as its UTF-8 bytes.
   */
  readonly marker: string | Uint8Array | readonly (string | Uint8Array)[];
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
 * What a rule does to the first `times` requests it matches: `watch` only counts them, `cut`
 * cuts each after Redis ran it ({@link FaultControls.cutAfterRequest}), `hold` keeps each back
 * for a late delivery ({@link FaultControls.holdRequest}).
 */
export type RuleAction = 'watch' | 'cut' | 'hold';

/**
 * A rule that fault proxies apply to the requests passing through them, in order. A plain rule
 * ({@link FaultControls.watchRequests}) only counts; a cut rule
 * ({@link FaultControls.cutAfterRequest}) also takes "shots": for each of its first `times`
 * matching requests, the proxy forwards the request to Redis, swallows Redis's reply and destroys
 * both sockets, so the request ran but the driver never learns its outcome (and a driver that
 * re-sends, like ioredis, sends it again after reconnecting). A hold rule (a `RequestHold`, from
 * {@link FaultControls.holdRequest}) takes shots too, and keeps each request back instead. One
 * rule may be shared by several proxies (a cluster's); its shots and counts are then shared too.
 *
 * Connections in pub/sub or MONITOR mode are never matched: their replies cannot be paired with
 * requests.
 */
export class RequestRule {
  /** What the rule does to the requests it takes a shot at. */
  readonly action: RuleAction;
  readonly #markers: readonly Buffer[];
  readonly #commands: ReadonlySet<string> | undefined;
  readonly #partitionMs: number | undefined;
  #shotsLeft: number;
  #seen = 0;
  #answered = 0;
  #cut = 0;
  readonly #shots: Buffer[] = [];
  #active = true;
  readonly #waiters = new Set<() => void>();

  /**
   * Use {@link FaultControls.cutAfterRequest}, {@link FaultControls.holdRequest} or
   * {@link FaultControls.watchRequests}; a rule made here takes effect once given to
   * `FaultProxy.addRule`.
   *
   * @param options - what to match, and for a cut or hold rule how often to act (`times`) and,
   *   for a cut rule, what to do after (`partitionMs`)
   * @param action - `watch` for a rule that only counts (its `times` is then 0)
   * @throws RangeError for a negative or fractional `times`, or a negative `partitionMs`
   */
  constructor(options: CutOptions, action: RuleAction) {
    this.action = action;
    const times = action === 'watch' ? 0 : (options.times ?? 1);
    if (!Number.isInteger(times) || times < 0) throw new RangeError(`times must be an integer >= 0, got ${times}`);
    if (options.partitionMs !== undefined && !(options.partitionMs >= 0)) {
      throw new RangeError(`partitionMs must be >= 0, got ${options.partitionMs}`);
    }
    const markers: readonly (string | Uint8Array)[] =
      typeof options.marker === 'string' || options.marker instanceof Uint8Array ? [options.marker] : options.marker;
    this.#markers = markers
      .filter((marker) => marker.length > 0)
      .map((marker) => (typeof marker === 'string' ? Buffer.from(marker, 'utf8') : Buffer.from(marker)));
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

  /**
   * The requests it took a shot at (cut or held), in order, as the client sent them: a complete
   * RESP frame each. A driver that re-sends one sends the same bytes, so a rule watching for a
   * shot's bytes ({@link FaultControls.watchRequests} with `marker` set to them) counts its re-sends.
   */
  get requests(): readonly Buffer[] {
    return this.#shots;
  }

  /** Cuts (for a hold rule: holds) still to come. */
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
  async until(
    condition: (rule: this) => boolean,
    description = 'the rule reached its condition',
    timeoutMs = 10_000,
  ): Promise<void> {
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
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting until ${description} (seen ${this.#seen}, cut ${this.#cut}, answered ${this.#answered})`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(check);
    });
  }

  /** For proxies: whether a request (its command name and whole frame) matches. */
  matches(command: string | undefined, request: Buffer): boolean {
    if (!this.#active) return false;
    if (this.#commands !== undefined && (command === undefined || !this.#commands.has(command))) return false;
    return this.#markers.every((marker) => request.includes(marker));
  }

  /**
   * For proxies: counts a matching request and says whether to cut or hold it (see
   * {@link RequestRule.action}), taking a shot when `canAct` (no request of the connection is
   * cut or held already) and one is left.
   */
  admit(canAct: boolean): boolean {
    this.#seen++;
    const shoot = canAct && this.#shotsLeft > 0;
    if (shoot) this.#shotsLeft--;
    this.#notify();
    return shoot;
  }

  /** For proxies: the shot {@link RequestRule.admit} allowed was taken at this request (its bytes are copied). */
  recordShot(request: Buffer): void {
    this.#shots.push(Buffer.from(request));
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

  /** For subclasses: tells whoever waits in {@link RequestRule.until} that something changed. */
  protected notify(): void {
    this.#notify();
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }
}
