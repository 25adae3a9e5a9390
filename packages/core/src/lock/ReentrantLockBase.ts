import { holdMarkersKey, lockChannelName, unlockLatchKey } from '../keys/lockKeys.js';
import type { LockClient } from '../client/LockClient.js';
import { coreScripts } from '../scripts/coreScripts.js';
import type { HeldLock } from './HeldLock.js';
import { LockBase } from './LockBase.js';

/** The message that wakes one waiter, as Redisson's `LockPubSub.UNLOCK_MESSAGE`. */
export const UNLOCK_MESSAGE = 0;

/**
 * What the reentrant lock shares with the kinds built on its layout (Redisson's `RLock`: a hash at
 * the lock name whose field `<clientId>:<ownerId>` counts the owner's holds, and releases
 * announced on `redisson_lock__channel:{name}`): release, force-unlock and waking. A kind adds how
 * it acquires, as Redisson's fenced lock extends its `RLock`. For lock kind authors; applications
 * use `Lock` or such a kind.
 */
export abstract class ReentrantLockBase<Held extends HeldLock = HeldLock, Grant = null> extends LockBase<Held, Grant> {
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
    const reply = await this.client.scripts.run(coreScripts.forceRelease, [this.name, this.#channel, holdMarkersKey(this.name)], [UNLOCK_MESSAGE, publish]);
    return Number(reply) === 1;
  }

  protected async releaseOnce(field: string, hold: string): Promise<boolean> {
    const client = this.client;
    const publish = await client.publishCommand();
    const reply = await client.scripts.run(
      coreScripts.release,
      [this.name, this.#channel, unlockLatchKey(this.name, hold), holdMarkersKey(this.name)],
      // The latch tells a release re-sent soon after its first run the first outcome.
      [UNLOCK_MESSAGE, field, hold, publish, 2 * client.options.commandTimeout],
    );
    return reply !== null;
  }

  protected waitChannel(): string {
    return this.#channel;
  }
}
