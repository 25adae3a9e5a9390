import { LockBase, type LockHost } from '@deadbolt/core';
import {
  call,
  checkOptions,
  exponentialBackoff,
  reentrantLockKind,
  type Backoff,
  type ExponentialBackoffOptions,
  type LockKind,
} from '@deadbolt/core/kit';
import { spinForceRelease } from './commands/spinForceRelease.js';
import { spinRelease } from './commands/spinRelease.js';

/** The options of a {@link SpinLock}. */
export interface SpinLockOptions {
  /**
   * How long a waiter sleeps between attempts: about `initialDelay` ms after the first failed
   * attempt, `multiplier` times longer after each next one, never longer than `maxDelay`, each
   * with up to a quarter taken off at random. Default: Redisson's, 1 ms, 128 ms and 2.
   */
  readonly backoff?: ExponentialBackoffOptions;
}

/**
 * The spin lock's declaration: the reentrant lock's (acquire, extend, renewal and queries run the
 * plain lock's commands, in Redisson's layout), except that its waiters poll with `backoff`
 * instead of waiting on a channel, and its releases and force-unlock publish nothing.
 */
export function spinLockKind(backoff: Backoff): (name: string) => LockKind {
  return (name) => ({
    ...reentrantLockKind(name),
    kindName: 'spin',
    release: (field, hold) => call(spinRelease, { name, field, hold }),
    forceRelease: ({ request, holders }) => call(spinForceRelease, { name, request, holders }),
    backoff,
  });
}

/**
 * A reentrant distributed lock whose waiters poll instead of using pub/sub: Redisson's
 * `RSpinLock`, in Redisson's `RLock` layout (a hash at the lock name whose field
 * `<clientId>:<ownerId>` counts the owner's holds), so Java and Node services exclude each other
 * on the same name. For deployments where SUBSCRIBE and PUBLISH are not available: proxies
 * (twemproxy, Envoy's Redis filter), managed services with pub/sub disabled, ACL users granted no
 * channels. It never subscribes and never publishes.
 *
 * A waiter tries, sleeps the backoff's delay, and tries again (see {@link SpinLockOptions.backoff}),
 * so it takes the lock at most about one delay (128 ms by default) after a release, and each
 * waiter sends Redis one script call per delay while it waits. Everything else is the plain
 * `Lock`'s: owners and reentrancy, the watchdog, leases, `withLock`, `await using`, AbortSignal
 * on every wait, queries. Waiters are not served in order.
 *
 * @example
 * ```ts
 * const lock = new SpinLock(locks, 'reports:nightly', { backoff: { initialDelay: 5, maxDelay: 200 } });
 * await lock.withLock(async (signal) => {
 *   signal.throwIfAborted();
 *   await buildReport();
 * }, { waitTime: 10_000 });
 * ```
 */
export class SpinLock extends LockBase {
  /**
   * @param client - the `LockClient` to use
   * @param name - the lock's name; a name with `{braces}` is its own cluster hash tag
   * @param options - the backoff of its waiters
   * @throws {@link @deadbolt/core!index.InvalidArgumentError} when `name` is not a non-empty
   *   string, or an option is not as {@link SpinLockOptions} says (the error names it)
   */
  constructor(client: LockHost, name: string, options?: SpinLockOptions) {
    const { backoff } = checkOptions<SpinLockOptions>(options, ['backoff']);
    super(client, name, spinLockKind(exponentialBackoff(backoff, 'options.backoff')));
  }
}
