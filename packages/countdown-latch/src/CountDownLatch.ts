import type { LockHost, SyncedOperation } from '@deadbolt/core';
import {
  call,
  checkCount,
  checkDuration,
  checkOptions,
  checkSignal,
  lockRuntime,
  waitOnChannel,
  type Call,
  type LockRuntime,
} from '@deadbolt/core/kit';
import { countDownCommand } from './commands/countDown.js';
import { deleteLatchCommand } from './commands/deleteLatch.js';
import { getCountCommand } from './commands/getCount.js';
import type { LatchRequestInput } from './commands/inputs.js';
import { trySetCountCommand } from './commands/trySetCount.js';
import { checkLatchName, LATCH_WAKES, latchChannelName } from './latchKeys.js';

/** Options of {@link CountDownLatch.await}. Every time is in milliseconds. */
export interface LatchAwaitOptions {
  /** Give up after waiting this long; `await` then resolves `false`. Default: `Infinity`. 0 reads the count once. */
  waitTime?: number;
  /** Aborts the wait; the promise rejects with the signal's reason and nothing is left behind. */
  signal?: AbortSignal;
}

const AWAIT_OPTIONS = ['waitTime', 'signal'] as const;

/**
 * A distributed count-down latch: tasks in any process wait until others have counted it down to
 * zero. Redisson's `RCountDownLatch`, in its layout (the count as a decimal string at the latch's
 * name, messages on `redisson_countdownlatch__channel__{name}`), so Java and Node services share
 * one latch: either side sets, counts down and waits, and each side's last countdown wakes the
 * other's waiters.
 *
 * As in Redisson, the count can be set again once the latch is open (`trySetCount` sets a count
 * only when none is set), and a latch with no count is open: `getCount()` reads 0 and `await()`
 * returns at once. Waiting is by pub/sub through the client's shared subscription, never polling.
 *
 * Every change (`trySetCount`, `countDown`, `delete`) is one request that runs once however often
 * it reaches Redis, and never past its deadline (the client's estimate of the server's time at the
 * send, plus `commandTimeout`): a copy the driver re-sends, or the network delivers late, counts
 * nothing, sets nothing and deletes nothing. A call that fails with `RedisUnavailableError` may or
 * may not have run; calling again is a new request. With the client's `replicaSync`, each change
 * returns once replicas have it, and fails with `ReplicaSyncError` when they do not (it stands on
 * the master).
 *
 * @example
 * ```ts
 * const ready = new CountDownLatch(locks, 'deploy:42:ready');
 * await ready.trySetCount(3); // three services must report ready
 * ```
 */
export class CountDownLatch {
  /** The client this latch runs on. */
  readonly client: LockHost;
  /** The latch's name: the key that holds its count. */
  readonly name: string;
  /** The channel its messages go out on, `redisson_countdownlatch__channel__{name}`. */
  readonly channel: string;
  readonly #runtime: LockRuntime;

  /**
   * @param client - the `LockClient` to use
   * @param name - the latch's name; it must not contain braces, since Redisson's channel wraps it in them
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty string without braces, or `client` not a `LockClient`
   */
  constructor(client: LockHost, name: string) {
    this.#runtime = lockRuntime(client);
    this.client = client;
    this.name = checkLatchName(name);
    this.channel = latchChannelName(this.name);
  }

  /**
   * Sets the count when the latch has none (it was never set, or it reached zero or was deleted
   * since), and wakes waiters so they read it: Redisson's `trySetCount`.
   *
   * @param count - a non-negative safe integer; 0 sets a latch that is open already
   * @returns `true` when set, `false` when the latch has a count already (it is left as it is)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `count` is not a non-negative safe integer
   * @throws {@link @deadbolt/core!index.ReplicaSyncError} (operation `setCount`) when the client's `replicaSync`
   *   replicas did not confirm it; what it did stands on the master
   */
  async trySetCount(count: number): Promise<boolean> {
    checkCount(count, 'count', 0);
    return this.#change('setCount', (request) => call(trySetCountCommand, { ...request, count }));
  }

  /**
   * Counts the latch down by one. The countdown that reaches zero deletes the key and wakes every
   * waiter, on every client and on Redisson's side. On a latch with no count it changes nothing
   * (as Redisson: the count would fall below zero, so the key is deleted).
   *
   * @throws {@link @deadbolt/core!index.ReplicaSyncError} (operation `countDown`) when the client's
   *   `replicaSync` replicas did not confirm it; the countdown stands on the master
   */
  async countDown(): Promise<void> {
    return this.#change('countDown', (request) => call(countDownCommand, request));
  }

  /** The count: 0 when the latch has none (open). */
  async getCount(): Promise<number> {
    const runtime = this.#runtime;
    runtime.assertOpen();
    return runtime.run(call(getCountCommand, { name: this.name }));
  }

  /**
   * Deletes the latch, so it is open, and wakes Deadbolt's waiters, which then read the count 0.
   * (Redisson announces a delete as a new count, which does not wake its own waiters.)
   *
   * @returns `true` when the latch had a count, `false` when there was none
   * @throws {@link @deadbolt/core!index.ReplicaSyncError} (operation `delete`) when the client's
   *   `replicaSync` replicas did not confirm it; the latch is deleted on the master
   */
  async delete(): Promise<boolean> {
    return this.#change('delete', (request) => call(deleteLatchCommand, request));
  }

  /**
   * Waits until the count is zero.
   *
   * @returns `true` once the count is read as zero (at once when the latch has none), `false`
   *   when `waitTime` ran out first
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} for a bad option; rejects with the
   *   signal's reason when aborted, with {@link @deadbolt/core!index.ClientClosedError} when the client closes
   */
  async await(options?: LatchAwaitOptions): Promise<boolean> {
    const checked = checkOptions<LatchAwaitOptions>(options, AWAIT_OPTIONS);
    const waitTime =
      checked.waitTime === undefined
        ? Infinity
        : checkDuration(checked.waitTime, 'options.waitTime', { allowInfinity: true });
    const signal = checkSignal(checked.signal);
    this.#runtime.assertOpen();
    signal?.throwIfAborted();
    if (waitTime === 0) return (await this.getCount()) <= 0;
    // Below zero too: Redisson's await ends once the count is not positive.
    const isOpen = async () => (await this.getCount()) <= 0;
    return waitOnChannel({
      runtime: this.#runtime,
      channel: this.channel,
      wakes: LATCH_WAKES,
      waitTime,
      signal,
      check: isOpen,
    });
  }

  // Each change is one request with an id of its own, run once however often it reaches Redis
  // and never past its deadline; after an outcome it did not learn, it is sent again for a while
  // (LockRuntime.runOnce), and a try that did run makes the next answer its outcome. With replica
  // sync, it then waits for the replicas whatever the reply: every change writes, if only its
  // request record.
  async #change<Reply>(operation: SyncedOperation, bind: (request: LatchRequestInput) => Call<Reply>): Promise<Reply> {
    const runtime = this.#runtime;
    runtime.assertOpen();
    const reply = await runtime.runOnce(bind({ name: this.name, request: runtime.newHoldId() }));
    await runtime.confirmReplicas?.(this.name, operation);
    return reply;
  }
}
