import type { LockHost } from '@deadbolt/core';
import {
  call,
  checkLockName,
  confirmOrGiveBack,
  giveBackIfGone,
  giveBackQuietly,
  lockRuntime,
  type Call,
  type LockRuntime,
} from '@deadbolt/core/kit';
import { trySetPermitsCommand } from './commands/trySetPermits.js';
import { checkPermits } from './permitArguments.js';
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
   * Redisson's `trySetPermits`. One request, run once however often it reaches Redis: a copy the
   * driver sends again (its first reply lost) replies what the first run did.
   *
   * @param permits - a non-negative safe integer
   * @returns `true` when set, `false` when the semaphore exists already (it is left as it is)
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a non-negative safe integer
   */
  async trySetPermits(permits: number): Promise<boolean> {
    checkPermits(permits, 0);
    return this.runOnce(call(trySetPermitsCommand, { name: this.name, permits, request: this.runtime.newHoldId() }));
  }

  /**
   * Adds permits to the free ones (a missing semaphore has 0), or takes some away with a negative
   * number, and wakes waiters: Redisson's `addPermits`. Taking away more than are free leaves the
   * count below zero, and acquisitions wait until releases bring it back above. As Redisson's, it
   * drops the TTL the semaphore's key may have. One request, run once however often it reaches
   * Redis, and never after its deadline: a copy adds nothing more.
   *
   * @param permits - a safe integer, negative to take permits away
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `permits` is not a safe integer
   */
  async addPermits(permits: number): Promise<void> {
    checkPermits(permits, -Number.MAX_SAFE_INTEGER);
    await this.runOnce(this.addPermitsCall(permits, this.runtime.newHoldId()));
  }

  /**
   * The kind's `addPermits` script call, as request `request`: Redisson announces it differently
   * for each kind.
   *
   * @internal
   */
  protected abstract addPermitsCall(permits: number, request: string): Call<number>;

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
   * Runs a command that counts once per request id (a `once()` script, or a release by hold id)
   * once the client is checked open, sending it again after an outcome it did not learn (see
   * `LockRuntime.runOnce`), so that the caller learns the outcome where it can.
   *
   * @internal
   */
  protected runOnce<Reply>(command: Call<Reply>): Promise<Reply> {
    this.runtime.assertOpen();
    return this.runtime.runOnce(command);
  }

  /**
   * Gives back permits nobody holds, with a command that gives back once however often it runs
   * (`LockRuntime.giveBack`: sent again while Redis is away, in the background once the tries of
   * {@link SemaphoreBase.runOnce} are spent): a failure is reported by the client's
   * `handledError` event, not thrown.
   *
   * @internal
   */
  protected giveBack(command: Call<unknown>): Promise<void> {
    return giveBackQuietly(this.runtime, this.name, command);
  }

  /**
   * Keeps the permits an acquisition's last attempt took only for a caller still there, and, with
   * the client's `replicaSync`, only once replicas have them: else `giveBack` gives them back and
   * this rejects (with the signal's reason, `ClientClosedError` or `ReplicaSyncError`).
   *
   * @internal
   */
  protected async keepTaken(signal: AbortSignal | undefined, giveBack: () => Promise<void>): Promise<void> {
    // Aborted or closed while the last attempt was in flight: the caller is gone, so are the permits.
    await giveBackIfGone(this.runtime, signal, giveBack);
    await confirmOrGiveBack(this.runtime, this.name, signal, giveBack);
  }

  /**
   * With the client's `replicaSync`, waits until replicas have a release of permits that just
   * freed some; they stay free on the master whatever the replicas say.
   *
   * @throws `ReplicaSyncError` (operation `release`) when too few replicas acknowledged
   * @internal
   */
  protected async confirmReleased(): Promise<void> {
    await this.runtime.confirmReplicas?.(this.name, 'release');
  }
}
