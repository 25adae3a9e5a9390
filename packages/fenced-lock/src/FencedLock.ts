import { holdMarkersKey, ReentrantLockBase, type AttemptContext, type HoldDescription, type LockClient } from '@deadbolt/core';
import { FencedHeldLock } from './FencedHeldLock.js';
import { fencedScripts } from './fencedScripts.js';
import { fencingTokenKey } from './fencingTokenKey.js';

/**
 * A reentrant distributed lock whose every acquisition draws a fencing token: Redisson's
 * `RFencedLock`, in its layout (the plain lock's hash at the name, and the counter
 * `redisson_lock_token:{name}`), so Java and Node services share one sequence of tokens.
 *
 * A lease can run out while its holder is paused (a long GC, a blocked event loop, a stopped
 * process), and the holder may then write after the next holder did. The token stops that write
 * where it lands: the storage remembers the highest token it has seen per resource and refuses a
 * write that carries a lower one. Tokens strictly increase per lock name across all clients, and
 * every acquisition gets a new one, a re-entry too: within nested holds, write with the innermost
 * hold's token.
 *
 * Everything else is the plain `Lock`'s: owners and reentrancy, the watchdog, `withLock`,
 * `await using`, waiting, releases and their wake-ups, queries. Costs one more increment inside
 * the acquire script, no extra round trip. `forceUnlock` leaves the counter alone, so tokens keep
 * increasing after it.
 *
 * Redis replicates asynchronously: a failover right after an acquisition can promote a replica
 * whose counter is behind, and the next acquisition would then draw a token already handed out.
 * The client option `LockClientOptions.replicaSync` makes every acquisition wait until replicas
 * have the lock and the counter.
 *
 * Redisson's `lockAndGetToken()` is `(await lock.acquire()).token`, its
 * `tryLockAndGetToken(wait, lease, unit)` is `(await lock.tryAcquire({ waitTime, leaseTime }))?.token`,
 * its `getToken()` is {@link FencedLock.currentToken}.
 *
 * @example
 * ```ts
 * const lock = new FencedLock(locks, 'ledger');
 * // ...
 * await lock.withLock(async (signal, held) => {
 *   signal.throwIfAborted();
 *   await storage.write('balance', '95 from C', held.token); // refused if a later holder wrote first
 * });
 * ```
 */
export class FencedLock extends ReentrantLockBase<FencedHeldLock, bigint> {
  /** The token counter's key, `redisson_lock_token:{name}`, in the lock's hash slot. */
  readonly tokenKey: string;

  /**
   * @param client - the client to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link @deadbolt/core!InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockClient, name: string) {
    super(client, name);
    this.tokenKey = fencingTokenKey(this.name);
  }

  /**
   * The token of the latest acquisition of this lock name by anyone, held or not: Redisson's
   * `getToken()`.
   *
   * @returns the token, or `null` when the lock was never taken
   * @throws {@link @deadbolt/core!RedisUnavailableError}, {@link @deadbolt/core!ClientClosedError}
   */
  async currentToken(): Promise<bigint | null> {
    this.client.assertOpen();
    const reply = await this.client.scripts.run(fencedScripts.token, [this.tokenKey], []);
    return reply === null ? null : BigInt(String(reply));
  }

  protected tryAcquireOnce(attempt: AttemptContext): Promise<number | bigint> {
    const { field, lease, hold } = attempt;
    const keys = [this.name, this.tokenKey, holdMarkersKey(this.name)];
    return this.runGrantingScript(fencedScripts.acquire, keys, [lease, field, hold], attempt, tokenOrTtl);
  }

  protected override createHeld(hold: HoldDescription, token: bigint): FencedHeldLock {
    return new FencedHeldLock(hold, token);
  }
}

// The script replies { token } when it took the lock, else the holder's TTL.
function tokenOrTtl(reply: unknown): number | bigint {
  return Array.isArray(reply) ? BigInt(String(reply[0])) : Number(reply);
}
