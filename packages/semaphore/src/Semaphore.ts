import { InvalidArgumentError, type LockHost } from '@deadbolt/core';
import { call, checkCount, checkDuration, checkLockName, checkOptions, checkSignal, lockRuntime, waitOnChannel, type Call, type LockRuntime } from '@deadbolt/core/kit';
import { addPermitsCommand } from './commands/addPermits.js';
import { availablePermitsCommand } from './commands/availablePermits.js';
import { drainPermitsCommand } from './commands/drainPermits.js';
import { tryAcquirePermitsCommand } from './commands/tryAcquirePermits.js';
import { trySetPermitsCommand } from './commands/trySetPermits.js';
import { HeldPermits } from './HeldPermits.js';
import { PermitWaitTimeoutError } from './PermitWaitTimeoutError.js';
import { SEMAPHORE_WAKES, semaphoreChannelName } from './semaphoreKeys.js';

/** Options of {@link Semaphore.acquire} and {@link Semaphore.tryAcquire}. Every time is in milliseconds. */
export interface PermitAcquireOptions {
  /**
   * How long to wait for the permits. `acquire` defaults to `Infinity` and rejects with
   * {@link PermitWaitTimeoutError} when it runs out; `tryAcquire` defaults to 0 (one attempt) and
   * resolves `null`.
   */
  waitTime?: number;
  /** Aborts the wait; the promise rejects with the signal's reason and nothing is taken or left behind. */
  signal?: AbortSignal;
}

const ACQUIRE_OPTIONS = ['waitTime', 'signal'] as const;

/**
 * A distributed counting semaphore: at most as many holders at once as it has permits, across
 * processes. Redisson's `RSemaphore`, in its layout (the available permits as a decimal string at
 * the semaphore's name, announced on `redisson_sc:{name}`), so Java and Node services share one
 * semaphore: either side sets permits, acquires and releases, and each side's release wakes the
 * other's waiters.
 *
 * An acquisition of several permits takes them all at once or none, and waits by pub/sub through
 * the client's shared subscription, never polling. The semaphore has no owner and no lease: a
 * process that dies holding permits keeps them from everyone until someone adds them back (see
 * the guide's "When things fail").
 *
 * @example
 * ```ts
 * const exports = new Semaphore(locks, 'report-exports');
 * await exports.trySetPermits(2); // at most two exports run at once, across every process
 * ```
 */
export class Semaphore {
  /** The client this semaphore runs on. */
  readonly client: LockHost;
  /** The semaphore's name: the key that holds its available permits. */
  readonly name: string;
  /** The channel its changes are announced on, `redisson_sc:{name}`. */
  readonly channel: string;
  readonly #runtime: LockRuntime;

  /**
   * @param client - the `LockClient` to use
   * @param name - the semaphore's name; braces in it must form a hash tag, as in a lock name
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a valid lock name, or `client` not a `LockClient`
   */
  constructor(client: LockHost, name: string) {
    this.#runtime = lockRuntime(client);
    this.client = client;
    this.name = checkLockName(name);
    this.channel = semaphoreChannelName(this.name);
  }

  /**
   * Sets the permits when the semaphore has none set (its key is missing), and wakes waiters:
   * Redisson's `trySetPermits`.
   *
   * @param permits - a non-negative safe integer
   * @returns `true` when set, `false` when the semaphore exists already (it is left as it is)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a non-negative safe integer
   */
  async trySetPermits(permits: number): Promise<boolean> {
    checkPermits(permits, 0);
    return this.#run(call(trySetPermitsCommand, { name: this.name, permits }));
  }

  /**
   * Adds permits to whatever the semaphore has (a missing semaphore has 0), or takes some away
   * with a negative number, and wakes waiters: Redisson's `addPermits`. Taking away more than
   * are available leaves the permits below zero, and acquisitions wait until releases bring them
   * back above.
   *
   * @param permits - a safe integer, negative to take permits away
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a safe integer
   */
  async addPermits(permits: number): Promise<void> {
    checkPermits(permits, -Number.MAX_SAFE_INTEGER);
    await this.#run(call(addPermitsCommand, { name: this.name, permits }));
  }

  /** The permits available now (0 when the semaphore has no key; below 0 after `addPermits` took more than there were). */
  async availablePermits(): Promise<number> {
    return this.#run(call(availablePermitsCommand, { name: this.name }));
  }

  /**
   * Takes every available permit at once: Redisson's `drainPermits`. The permits are not held by
   * anyone afterwards; give them back with {@link Semaphore.release} or `addPermits`.
   *
   * @returns how many permits there were (0 when the semaphore has no key, which it then still lacks)
   */
  async drainPermits(): Promise<number> {
    return this.#run(call(drainPermitsCommand, { name: this.name }));
  }

  /**
   * Takes `permits` permits, all at once, waiting as long as `waitTime` for them. While it waits it
   * holds none of them: a release wakes it, and it takes all it asked for in one script or sleeps
   * again. `acquire(0)` succeeds at once without asking Redis.
   *
   * @param permits - how many permits to take, a non-negative safe integer (default 1)
   * @returns the permits taken, to give back with `release()` or `await using`
   * @throws {@link PermitWaitTimeoutError} when `waitTime` ran out; {@link @deadbolt/core!index.InvalidArgumentError}
   *   for a bad argument; `RedisUnavailableError`, `ClientClosedError`; rejects with the signal's reason when aborted
   */
  async acquire(permits = 1, options?: PermitAcquireOptions): Promise<HeldPermits> {
    const { waitTime, signal } = checkAcquire(permits, options, Infinity);
    const held = await this.#take(permits, waitTime, signal);
    if (held === null) throw new PermitWaitTimeoutError(this.name, waitTime, permits);
    return held;
  }

  /**
   * Takes `permits` permits, all at once, if they are available now, or within `waitTime`.
   *
   * @param permits - how many permits to take, a non-negative safe integer (default 1)
   * @returns the permits taken, or `null` when too few were available within `waitTime` (default 0: one attempt)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} for a bad argument; `RedisUnavailableError`,
   *   `ClientClosedError`; rejects with the signal's reason when aborted
   */
  async tryAcquire(permits = 1, options?: PermitAcquireOptions): Promise<HeldPermits | null> {
    const { waitTime, signal } = checkAcquire(permits, options, 0);
    return this.#take(permits, waitTime, signal);
  }

  /**
   * Adds `permits` to the semaphore and wakes its waiters: Redisson's `release(n)`, for permits
   * that pass between processes (one acquires, another releases). Permits held as a
   * {@link HeldPermits} are given back with its own `release()` instead. Nothing checks that
   * these permits were ever taken: releasing more than were taken raises the semaphore's limit.
   *
   * @param permits - how many to give back, a non-negative safe integer (default 1); 0 does nothing
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a non-negative safe integer
   */
  async release(permits = 1): Promise<void> {
    checkPermits(permits, 0);
    if (permits > 0) await this.addPermits(permits);
  }

  // Takes the permits, waiting up to `waitTime`: the held permits, or `null` when the wait ran out.
  async #take(permits: number, waitTime: number, signal: AbortSignal | undefined): Promise<HeldPermits | null> {
    const runtime = this.#runtime;
    runtime.assertOpen();
    signal?.throwIfAborted();
    const giveBack = (count: number) => this.release(count);
    if (permits === 0) return new HeldPermits(this.name, 0, giveBack);
    const attempt = () =>
      runtime.run(call(tryAcquirePermitsCommand, { name: this.name, permits }), (late) => {
        // Taken after the call timed out: nobody holds them, so they go back at once.
        if (late) void this.#giveBack(permits);
      });
    const taken = await waitOnChannel({ runtime, channel: this.channel, wakes: SEMAPHORE_WAKES, waitTime, signal, check: attempt, checkBeforeJoining: true });
    if (!taken) return null;
    // Aborted or closed while the last attempt was in flight: the caller is gone, so are the permits.
    if (signal?.aborted || runtime.closed) {
      await this.#giveBack(permits);
      runtime.assertOpen();
      signal?.throwIfAborted();
    }
    return new HeldPermits(this.name, permits, giveBack);
  }

  // Gives back permits that nobody holds; a failure is reported, not thrown, and not retried (a
  // copy that reached Redis after all would give them back twice).
  async #giveBack(permits: number): Promise<void> {
    const { events } = this.#runtime;
    await this.#runtime.run(call(addPermitsCommand, { name: this.name, permits })).catch((error: unknown) => {
      if (events.listening('handledError')) events.emit('handledError', { operation: 'giveBack', name: this.name, error });
    });
  }

  #run<Reply>(command: Call<Reply>): Promise<Reply> {
    this.#runtime.assertOpen();
    return this.#runtime.run(command);
  }
}

// A number of permits: a safe integer of at least `min` (past 2^53 a number no longer names one integer).
function checkPermits(value: unknown, min: number, argument = 'permits'): number {
  checkCount(value, argument, min);
  if (!Number.isSafeInteger(value)) throw new InvalidArgumentError(argument, `must be a safe integer, got ${String(value)}`);
  return value as number;
}

// The arguments of an acquisition, checked before anything reaches Redis.
function checkAcquire(permits: unknown, options: unknown, defaultWait: number): { waitTime: number; signal: AbortSignal | undefined } {
  checkPermits(permits, 0);
  const checked = checkOptions<PermitAcquireOptions>(options, ACQUIRE_OPTIONS);
  const waitTime = checked.waitTime === undefined ? defaultWait : checkDuration(checked.waitTime, 'options.waitTime', { allowInfinity: true });
  return { waitTime, signal: checkSignal(checked.signal) };
}
