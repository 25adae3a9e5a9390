import { LockBase, type LockHost } from '@deadbolt/core';
import { call, lockRuntime, reentrantLockKind, type LockKind } from '@deadbolt/core/kit';
import { fencedAcquire } from './commands/fencedAcquire.js';
import { fencedHandOff } from './commands/fencedHandOff.js';
import { fencedToken } from './commands/fencedToken.js';
import { FencedHeldLock } from './FencedHeldLock.js';
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
export class FencedLock extends LockBase<FencedHeldLock, bigint> {
  /** The token counter's key, `redisson_lock_token:{name}`, in the lock's hash slot. */
  readonly tokenKey: string;

  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty string
   */
  constructor(client: LockHost, name: string) {
    super(client, name, fencedLockKind);
    this.tokenKey = fencingTokenKey(this.name);
  }

  /**
   * The token of the latest acquisition of this lock name by anyone, held or not: Redisson's
   * `getToken()`.
   *
   * @returns the token, or `null` when the lock was never taken
   * @throws {@link @deadbolt/core!index.RedisUnavailableError}, {@link @deadbolt/core!index.ClientClosedError}
   */
  async currentToken(): Promise<bigint | null> {
    const runtime = lockRuntime(this.client);
    runtime.assertOpen();
    return runtime.run(call(fencedToken, { name: this.name }));
  }
}

/**
 * The fenced lock's declaration: the reentrant lock's, except that each acquisition draws a token
 * from `redisson_lock_token:{name}` and returns it with the hold, and a local hand-off draws the
 * receiver's as its acquisition would.
 */
export function fencedLockKind(name: string): LockKind<bigint, FencedHeldLock> {
  return {
    ...reentrantLockKind(name),
    kindName: 'fenced',
    acquire: ({ field, hold, lease }) => call(fencedAcquire, { name, field, hold, lease }),
    handOff: fencedHandOff,
    held: (hold, token) => new FencedHeldLock(hold, token),
  };
}
