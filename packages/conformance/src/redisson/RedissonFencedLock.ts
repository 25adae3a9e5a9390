import type { RespValue } from '@deadbolt/test-harness';
import { RedissonLock } from './RedissonLock.js';
import { prefixName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';

// Takes a free lock or re-enters it, incrementing the token counter first (a re-entry draws a
// token too); replies nil, else the lock's PTTL. KEYS: hash, token counter. ARGV: lease, field.
const LOCK = `
if redis.call('exists', KEYS[1]) == 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return redis.call('pttl', KEYS[1])
end
redis.call('incr', KEYS[2])
redis.call('hincrby', KEYS[1], ARGV[2], 1)
redis.call('pexpire', KEYS[1], ARGV[1])
return nil`;

// The same, replying { -1, token } when taken or re-entered and { PTTL, -1 } otherwise.
const LOCK_AND_GET_TOKEN = `
if redis.call('exists', KEYS[1]) == 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return { redis.call('pttl', KEYS[1]), -1 }
end
local token = redis.call('incr', KEYS[2])
redis.call('hincrby', KEYS[1], ARGV[2], 1)
redis.call('pexpire', KEYS[1], ARGV[1])
return { -1, token }`;

/**
 * Redisson's `RedissonFencedLock` (`RFencedLock`): the reentrant lock plus a counter
 * `redisson_lock_token:{name}` that every acquisition increments. Unlock and renewal are the
 * reentrant lock's.
 */
export class RedissonFencedLock extends RedissonLock {
  /** `redisson_lock_token:{name}`. */
  readonly tokenName: string;

  constructor(peer: RedissonPeer, name: string) {
    super(peer, name);
    this.tokenName = prefixName('redisson_lock_token', name);
  }

  protected override runTryLockInner(threadId: number, leaseTime: number): Promise<RespValue> {
    return this.peer.eval(LOCK, [this.name, this.tokenName], [leaseTime, this.lockName(threadId)]);
  }

  /** `getToken()`: the counter, `null` before the first acquisition. */
  async getToken(): Promise<number | null> {
    const token = await this.peer.command(this.tokenName, ['GET', this.tokenName]);
    return token === null ? null : Number(token);
  }

  /**
   * One token acquisition (`tryLockInnerAsync` of the token API): `{ ttl: -1, token }` when taken
   * or re-entered, else `{ ttl, token: -1 }`.
   */
  async tryLockAndGetTokenInner(
    threadId: number,
    leaseTime: number,
  ): Promise<{ readonly ttl: number; readonly token: number }> {
    this.countAttempt();
    const reply = await this.peer.eval(
      LOCK_AND_GET_TOKEN,
      [this.name, this.tokenName],
      [leaseTime, this.lockName(threadId)],
    );
    const [ttl, token] = Array.isArray(reply) ? reply.map(Number) : [Number.NaN, Number.NaN];
    return { ttl: ttl ?? Number.NaN, token: token ?? Number.NaN };
  }

  /**
   * `tryLockAndGetToken(waitTime, leaseTime)`: waits up to `waitTime` ms (-1: no limit), as
   * `tryLockAndGetTokenAsync` does; resolves the token, or `null` when the wait ran out.
   */
  async tryLockAndGetToken(threadId: number, waitTime = 0, leaseTime = -1): Promise<number | null> {
    this.peer.assertRunning();
    let time = waitTime < 0 ? Number.MAX_SAFE_INTEGER : waitTime;
    let current = performance.now();
    let attempt = await this.#acquire(threadId, leaseTime);
    if (attempt.ttl === -1) return attempt.token;
    time -= performance.now() - current;
    if (time <= 0) return null;
    current = performance.now();
    const entry = await this.subscribe(threadId);
    try {
      time -= performance.now() - current;
      for (;;) {
        if (time <= 0) return null;
        const started = performance.now();
        attempt = await this.#acquire(threadId, leaseTime);
        if (attempt.ttl === -1) return attempt.token;
        time -= performance.now() - started;
        if (time <= 0) return null;
        const sleeping = performance.now();
        await entry.latch.tryAcquire(attempt.ttl < time ? attempt.ttl : time);
        this.peer.assertRunning();
        time -= performance.now() - sleeping;
      }
    } finally {
      this.unsubscribe(entry, threadId);
    }
  }

  /** `lockAndGetToken()`: waits as long as it takes and resolves the token. */
  async lockAndGetToken(threadId: number, leaseTime = -1): Promise<number> {
    const token = await this.tryLockAndGetToken(threadId, -1, leaseTime);
    if (token === null) throw new Error('lockAndGetToken gave up');
    return token;
  }

  async #acquire(threadId: number, leaseTime: number): Promise<{ readonly ttl: number; readonly token: number }> {
    this.peer.assertRunning();
    const attempt = await this.tryLockAndGetTokenInner(
      threadId,
      leaseTime > 0 ? leaseTime : this.internalLockLeaseTime,
    );
    if (attempt.ttl === -1) {
      if (leaseTime > 0) this.internalLockLeaseTime = leaseTime;
      else this.scheduleExpirationRenewal(threadId);
    }
    return attempt;
  }
}
