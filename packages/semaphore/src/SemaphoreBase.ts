import type { LockHost } from '@deadbolt/core';
import { call, checkLockName, lockRuntime, type Call, type LockRuntime } from '@deadbolt/core/kit';
import { addPermitsCommand } from './commands/addPermits.js';
import { trySetPermitsCommand } from './commands/trySetPermits.js';
import { checkPermits } from './permitArguments.js';
import { retryUnavailable } from './retryUnavailable.js';
import { semaphoreChannelName } from './semaphoreKeys.js';

/**
 * What {@link Semaphore} and {@link PermitExpirableSemaphore} share: the free permits as a decimal
 * string at the name, changes announced on `redisson_sc:{name}`, and the two operations that set
 * and add free permits, which Redisson's `RSemaphore` and `RPermitExpirableSemaphore` do alike.
 */
export abstract class SemaphoreBase {
  /** The client this semaphore runs on. */
  readonly client: LockHost;
  /** The semaphore's name: the key that holds its free permits. */
  readonly name: string;
  /** The channel its changes are announced on, `redisson_sc:{name}`. */
  readonly channel: string;
  /** @internal */
  protected readonly runtime: LockRuntime;

  /**
   * @param client - the `LockClient` to use
   * @param name - the semaphore's name; braces in it must form a hash tag, as in a lock name
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a valid lock name, or `client` not a `LockClient`
   */
  constructor(client: LockHost, name: string) {
    this.runtime = lockRuntime(client);
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
    return this.run(call(trySetPermitsCommand, { name: this.name, permits }));
  }

  /**
   * Adds permits to the free ones (a missing semaphore has 0), or takes some away with a negative
   * number, and wakes waiters: Redisson's `addPermits`. Taking away more than are free leaves the
   * count below zero, and acquisitions wait until releases bring it back above. A copy of the
   * request that the driver sends again within twice `commandTimeout` adds nothing more.
   *
   * @param permits - a safe integer, negative to take permits away
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a safe integer
   */
  async addPermits(permits: number): Promise<void> {
    checkPermits(permits, -Number.MAX_SAFE_INTEGER);
    // A request id of its own: a copy the driver sends again adds nothing more.
    await this.run(call(addPermitsCommand, { name: this.name, permits, request: this.runtime.newHoldId() }));
  }

  /** The permits free now (0 when the semaphore has no key). */
  abstract availablePermits(): Promise<number>;

  /**
   * Runs a command once the client is checked open.
   *
   * @internal
   */
  protected run<Reply>(command: Call<Reply>): Promise<Reply> {
    this.runtime.assertOpen();
    return this.runtime.run(command);
  }

  /**
   * Gives back permits nobody holds: a failure is reported by the client's `handledError` event,
   * not thrown. Tried up to `tries` times while Redis is unreachable and the client open (default
   * once): more only for a command that gives back once however often it runs.
   *
   * @internal
   */
  protected async giveBack(command: Call<unknown>, tries = 1): Promise<void> {
    const { events } = this.runtime;
    const { runtime } = this;
    await retryUnavailable(tries, () => !runtime.closed, () => runtime.run(command)).catch((error: unknown) => {
      if (events.listening('handledError')) events.emit('handledError', { operation: 'giveBack', name: this.name, error });
    });
  }
}
