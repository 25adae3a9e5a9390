import type { RespValue } from '@deadbolt/test-harness';
import { RedissonLock, type TryLockOptions } from './RedissonLock.js';
import { unlockLatchName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';

// Takes a free lock, or re-enters it for the same field, setting the lease; otherwise replies
// the holder's PTTL. KEYS[1]: lock hash. ARGV[1]: lease; ARGV[2]: field <clientId>:<threadId>.
const LOCK = `
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])`;

// Releases one hold without publishing anything. A latch remembers this request's outcome (0
// holds remain, 1 freed) for ARGV[3] ms; nil when the field holds nothing.
// KEYS: hash, latch. ARGV: lease kept when holds remain, field, latch ms.
const UNLOCK = `
local seen = redis.call('get', KEYS[2])
if seen then
  return tonumber(seen)
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return nil
end
if redis.call('hincrby', KEYS[1], ARGV[2], -1) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[1])
  redis.call('set', KEYS[2], 0, 'px', ARGV[3])
  return 0
end
redis.call('del', KEYS[1])
redis.call('set', KEYS[2], 1, 'px', ARGV[3])
return 1`;

/** Redisson's `LockOptions.ExponentialBackOff` settings, in milliseconds but `multiplier`. */
export interface RedissonBackOff {
  readonly initialDelay: number;
  readonly maxDelay: number;
  readonly multiplier: number;
}

/** `LockOptions.defaults()`: 1 ms, at most 128 ms, twice as long each time. */
export const REDISSON_BACKOFF: RedissonBackOff = { initialDelay: 1, maxDelay: 128, multiplier: 2 };

/**
 * Redisson's `RedissonSpinLock` (`RSpinLock`): the reentrant lock's hash and renewal, with no
 * pub/sub at all. A waiting thread sleeps its backoff policy's next period between attempts;
 * unlock and force-unlock publish nothing.
 */
export class RedissonSpinLock extends RedissonLock {
  readonly #backOff: RedissonBackOff;

  constructor(peer: RedissonPeer, name: string, backOff: RedissonBackOff = REDISSON_BACKOFF) {
    super(peer, name);
    this.#backOff = backOff;
  }

  protected override runTryLockInner(threadId: number, leaseTime: number): Promise<RespValue> {
    return this.peer.eval(LOCK, [this.name], [leaseTime, this.lockName(threadId)]);
  }

  protected override runUnlockInner(threadId: number, requestId: string): Promise<RespValue> {
    const args = [this.internalLockLeaseTime, this.lockName(threadId), this.peer.config.unlockLatchTimeout];
    return this.peer.eval(UNLOCK, [this.name, unlockLatchName(this.name, requestId)], args);
  }

  /** `forceUnlock()`: deletes the lock whoever holds it, announcing nothing. */
  override async forceUnlock(): Promise<boolean> {
    this.cancelExpirationRenewal(null, null);
    return Number(await this.peer.command(this.name, ['DEL', this.name])) === 1;
  }

  /** `tryLock(waitTime, leaseTime)`: tries, then sleeps the backoff and tries again until the wait runs out. */
  override async tryLock(threadId: number, { waitTime, leaseTime = -1 }: TryLockOptions): Promise<boolean> {
    const started = performance.now();
    if ((await this.tryAcquire(waitTime, leaseTime, threadId)) === null) return true;
    if (performance.now() - started >= waitTime) return false;
    const policy = backOffPolicy(this.#backOff);
    for (;;) {
      await this.#sleep(policy());
      if ((await this.tryAcquire(waitTime, leaseTime, threadId)) === null) return true;
      if (performance.now() - started >= waitTime) return false;
    }
  }

  /** `lock(leaseTime)`: tries, sleeping the backoff between attempts, until it has the lock. */
  override async lock(threadId: number, leaseTime = -1): Promise<void> {
    const policy = backOffPolicy(this.#backOff);
    while ((await this.tryAcquire(-1, leaseTime, threadId)) !== null) await this.#sleep(policy());
  }

  /** After any unlock, the lease is the watchdog's again (the spin lock's override). */
  protected override cancelExpirationRenewal(threadId: number | null, _unlockResult: boolean | null): void {
    super.cancelExpirationRenewal(threadId, null);
  }

  async #sleep(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    this.peer.assertRunning();
  }
}

/**
 * `ExponentialBackOffPolicy`, one per acquisition: returns `initialDelay` first; each next period
 * is the last times `multiplier` plus a random whole number below the count of periods handed out
 * so far, capped at `maxDelay`, which it then keeps returning.
 */
function backOffPolicy(
  { initialDelay, maxDelay, multiplier }: RedissonBackOff,
  random: () => number = Math.random,
): () => number {
  let nextSleep = initialDelay;
  let fails = 0;
  return () => {
    if (nextSleep === maxDelay) return maxDelay;
    const result = nextSleep;
    fails++;
    nextSleep = Math.min(maxDelay, nextSleep * multiplier + Math.floor(random() * fails));
    return result;
  };
}
