import { lockChannelName, unlockLatchKey } from '../keys/lockKeys.js';
import type { LockClient } from '../client/LockClient.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { LockBase, type AttemptContext } from './LockBase.js';

/** The message that wakes one waiter, as Redisson's `LockPubSub.UNLOCK_MESSAGE`. */
export const UNLOCK_MESSAGE = 0;

/**
 * A reentrant distributed lock: Redisson's `RLock`, stored in Redisson's layout (a hash at the
 * lock name whose field `<clientId>:<ownerId>` counts the owner's holds), so Java services using
 * Redisson and Node services using Deadbolt exclude each other on the same name.
 *
 * Every acquisition has an owner. Without `owner`, each acquisition outside this lock's
 * `withLock` scope gets a fresh one, so concurrent tasks sharing this handle exclude each other;
 * inside a `withLock` callback, nested acquisitions of the same lock re-enter as the scope's owner.
 *
 * @example
 * ```ts
 * const lock = client.lock('invoice:42');
 * await using held = await lock.acquire({ waitTime: 5_000 });
 * await render(held.signal);
 * ```
 */
export class Lock extends LockBase {
  readonly #channel: string;

  /**
   * @param client - the client to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    super(client, name);
    this.#channel = lockChannelName(this.name);
  }

  async forceUnlock(): Promise<boolean> {
    this.client.assertOpen();
    const publish = await this.client.publishCommand();
    const reply = await this.client.scripts.run(coreScripts.forceRelease, [this.name, this.#channel], [UNLOCK_MESSAGE, publish]);
    return Number(reply) === 1;
  }

  protected tryAcquireOnce({ field, lease }: AttemptContext): Promise<number | null> {
    return this.runAcquireScript(coreScripts.acquire, [this.name], [lease, field], field, lease);
  }

  protected async releaseOnce(field: string, lease: number, requestId: string): Promise<boolean> {
    const client = this.client;
    const publish = await client.publishCommand();
    const reply = await client.scripts.run(
      coreScripts.release,
      [this.name, this.#channel, unlockLatchKey(this.name, requestId)],
      // The latch outlives any re-send of this request by the driver.
      [UNLOCK_MESSAGE, lease, field, publish, 2 * client.options.commandTimeout],
    );
    return reply !== null;
  }

  protected waitChannel(): string {
    return this.#channel;
  }
}
