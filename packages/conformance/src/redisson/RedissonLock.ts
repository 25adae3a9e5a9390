import type { RespValue } from '@deadbolt/test-harness';
import { UNLOCK_MESSAGE, type LockEntry } from './LockPubSub.js';
import { prefixName, unlockLatchName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';

/** The wait and lease of {@link RedissonLock.tryLock}, in milliseconds; -1 (or absent) for none. */
export interface TryLockOptions {
  /** How long to try; 0 makes one attempt (which, on a fair lock, queues and leaves again). */
  readonly waitTime: number;
  /** The lease; without one the lock is taken for `lockWatchdogTimeout` and renewed by the {@link LockTask}. */
  readonly leaseTime?: number;
}

/** Thrown by `unlock` when the thread does not hold the lock: Java's `IllegalMonitorStateException`. */
export class IllegalMonitorStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IllegalMonitorStateError';
  }
}

// Takes a free lock or re-enters it for the same field; otherwise replies the holder's PTTL.
// KEYS[1]: lock hash. ARGV[1]: lease; ARGV[2]: field <clientId>:<threadId>.
const LOCK = `
if redis.call('exists', KEYS[1]) == 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return redis.call('pttl', KEYS[1])
end
redis.call('hincrby', KEYS[1], ARGV[2], 1)
redis.call('pexpire', KEYS[1], ARGV[1])
return nil`;

// Releases one hold. A latch remembers the outcome of this request (0 holds remain, 1 freed) for
// ARGV[5] ms and answers a repeat of it; the last hold deletes the hash and publishes ARGV[1] on
// the lock channel. Replies nil when the field holds nothing.
// KEYS: hash, channel, latch. ARGV: message, lease kept when holds remain, field, publish command, latch ms.
const UNLOCK = `
local seen = redis.call('get', KEYS[3])
if seen then
  return tonumber(seen)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
if redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[3], 0, 'px', ARGV[5])
  return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[4], KEYS[2], ARGV[1])
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1`;

// Deletes the lock whoever holds it and publishes ARGV[1] on the channel. KEYS: hash, channel.
const FORCE_UNLOCK = `
if redis.call('del', KEYS[1]) == 0 then
  return 0
end
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1`;

/**
 * Redisson's `RedissonLock` (`RLock`) as a Java client runs it: the same scripts' behaviour, keys,
 * arguments and waiting. A thread id stands for the Java thread; the lock field is
 * `<clientId>:<threadId>`. The fair, read, write and fenced locks extend it as in Redisson.
 *
 * Waiting is Redisson's `tryLock(waitTime, leaseTime)` and `lock()`: try, subscribe the lock's
 * channel, try again, then block on the entry's latch for the TTL the attempt returned (or the
 * wait time left) until a message releases it, and loop. A lock taken without a lease time is
 * renewed by the client's {@link LockTask}.
 */
export class RedissonLock {
  /** The lock's name: the key of its hash. */
  readonly name: string;
  protected readonly peer: RedissonPeer;
  /**
   * Redisson's `internalLockLeaseTime`: `lockWatchdogTimeout`, or the lease of the latest
   * acquisition with a lease time until the next unlock; what an unlock that leaves holds sets.
   */
  protected internalLockLeaseTime: number;
  #attempts = 0;

  constructor(peer: RedissonPeer, name: string) {
    this.peer = peer;
    this.name = name;
    this.internalLockLeaseTime = peer.config.lockWatchdogTimeout;
  }

  /** How many acquisition scripts this lock object has run (a waiter that spins shows here). */
  get attempts(): number {
    return this.#attempts;
  }

  /** The channel the lock's unlocks publish on: `redisson_lock__channel:{name}`. */
  get channelName(): string {
    return prefixName('redisson_lock__channel', this.name);
  }

  /** The hash field of `threadId`: `<clientId>:<threadId>`. */
  lockName(threadId: number): string {
    return `${this.peer.id}:${threadId}`;
  }

  /** The pub/sub entry a waiting thread joins: one per client and lock. */
  protected entryName(_threadId: number): string {
    return `${this.peer.id}:${this.name}`;
  }

  /** The channel a waiting thread listens on. */
  waitChannel(_threadId: number): string {
    return this.channelName;
  }

  /**
   * One acquisition script (`tryLockInnerAsync`, the variant that replies a TTL): resolves `null`
   * when taken or re-entered, else the remaining TTL the caller sleeps for.
   *
   * @param waitTime - the acquisition's wait time (-1: none); the fair lock uses it
   */
  async tryLockInner(threadId: number, leaseTime: number, waitTime = -1): Promise<number | null> {
    this.countAttempt();
    return asTtl(await this.runTryLockInner(threadId, leaseTime, waitTime));
  }

  /** Counts one acquisition script run in {@link RedissonLock.attempts}. */
  protected countAttempt(): void {
    this.#attempts++;
  }

  /** Runs the acquisition script; a subclass with other keys or arguments overrides it. */
  protected runTryLockInner(threadId: number, leaseTime: number, _waitTime: number): Promise<RespValue> {
    return this.peer.eval(LOCK, [this.name], [leaseTime, this.lockName(threadId)]);
  }

  /**
   * One acquisition script in its no-wait form (`tryLockInnerAsync` with `EVAL_NULL_BOOLEAN`, as
   * `tryLock()` runs it): resolves whether the lock was taken. Same script as the TTL form here.
   */
  async tryLockInnerOnce(threadId: number, leaseTime: number): Promise<boolean> {
    return (await this.tryLockInner(threadId, leaseTime)) === null;
  }

  /**
   * One unlock script (`unlockInnerAsync`) under request id `requestId`: resolves `true` when
   * the lock was freed, `false` when holds remain, `null` when the thread held nothing. It does
   * not delete the latch, which {@link RedissonLock.unlock} does afterwards, as Redisson does.
   */
  async unlockInner(threadId: number, requestId: string): Promise<boolean | null> {
    return asBoolean(await this.runUnlockInner(threadId, requestId));
  }

  /** Runs the unlock script; a subclass with other keys or arguments overrides it. */
  protected runUnlockInner(threadId: number, requestId: string): Promise<RespValue> {
    const keys = [this.name, this.channelName, unlockLatchName(this.name, requestId)];
    const args = [
      UNLOCK_MESSAGE,
      this.internalLockLeaseTime,
      this.lockName(threadId),
      this.peer.publishCommand,
      this.peer.config.unlockLatchTimeout,
    ];
    return this.peer.eval(UNLOCK, keys, args);
  }

  /** `tryLock()`: one attempt with the watchdog's lease, no waiting, no queueing. */
  async tryLockOnce(threadId: number): Promise<boolean> {
    this.peer.assertRunning();
    const acquired = await this.tryLockInnerOnce(threadId, this.internalLockLeaseTime);
    if (acquired) this.scheduleExpirationRenewal(threadId);
    return acquired;
  }

  /**
   * `tryLock(waitTime, leaseTime)`: tries for `waitTime` ms, waking on the channel's messages;
   * a wait that runs out calls `acquireFailed` (a fair-lock waiter leaves the queue).
   */
  async tryLock(threadId: number, { waitTime, leaseTime = -1 }: TryLockOptions): Promise<boolean> {
    this.peer.assertRunning();
    let time = waitTime;
    let current = performance.now();
    if ((await this.tryAcquire(waitTime, leaseTime, threadId)) === null) return true;
    time -= performance.now() - current;
    if (time <= 0) return this.#failed(waitTime, threadId);
    current = performance.now();
    const entry = await this.subscribe(threadId);
    try {
      time -= performance.now() - current;
      if (time <= 0) return await this.#failed(waitTime, threadId);
      for (;;) {
        const started = performance.now();
        const ttl = await this.tryAcquire(waitTime, leaseTime, threadId);
        if (ttl === null) return true;
        time -= performance.now() - started;
        if (time <= 0) return await this.#failed(waitTime, threadId);
        const sleeping = performance.now();
        await entry.latch.tryAcquire(ttl >= 0 && ttl < time ? ttl : time);
        this.peer.assertRunning();
        time -= performance.now() - sleeping;
        if (time <= 0) return await this.#failed(waitTime, threadId);
      }
    } finally {
      this.unsubscribe(entry, threadId);
    }
  }

  /**
   * `lock(leaseTime)` (`lock()` without one): waits as long as it takes, sleeping the TTL each
   * attempt returns, or until a message when the lock has no TTL.
   */
  async lock(threadId: number, leaseTime = -1): Promise<void> {
    this.peer.assertRunning();
    if ((await this.tryAcquire(-1, leaseTime, threadId)) === null) return;
    const entry = await this.subscribe(threadId);
    try {
      for (;;) {
        const ttl = await this.tryAcquire(-1, leaseTime, threadId);
        if (ttl === null) return;
        if (ttl >= 0) await entry.latch.tryAcquire(ttl);
        else await entry.latch.acquire();
        this.peer.assertRunning();
      }
    } finally {
      this.unsubscribe(entry, threadId);
    }
  }

  /**
   * `unlock()`: releases one hold under a fresh request id, deletes that request's latch, and
   * stops renewing for this acquisition.
   *
   * @throws {@link IllegalMonitorStateError} when the thread did not hold the lock
   */
  async unlock(threadId: number): Promise<void> {
    this.peer.assertRunning();
    const requestId = this.peer.generateId();
    let freed: boolean | null = null;
    try {
      freed = await this.unlockInner(threadId, requestId);
      await this.peer.command(this.name, ['DEL', unlockLatchName(this.name, requestId)]);
    } finally {
      this.cancelExpirationRenewal(threadId, freed);
    }
    if (freed === null) {
      throw new IllegalMonitorStateError(
        `attempt to unlock lock, not locked by current thread by node id: ${this.peer.id} thread-id: ${threadId}`,
      );
    }
  }

  /** `forceUnlock()`: deletes the lock whoever holds it and wakes a waiter; resolves whether there was one. */
  async forceUnlock(): Promise<boolean> {
    this.cancelExpirationRenewal(null, null);
    return (
      Number(
        await this.peer.eval(FORCE_UNLOCK, [this.name, this.channelName], [UNLOCK_MESSAGE, this.peer.publishCommand]),
      ) === 1
    );
  }

  /** `isLocked()`: whether the lock's key exists. */
  async isLocked(): Promise<boolean> {
    return Number(await this.peer.command(this.name, ['EXISTS', this.name])) === 1;
  }

  /** `getHoldCount()` of `threadId`. */
  async holdCount(threadId: number): Promise<number> {
    return Number((await this.peer.command(this.name, ['HGET', this.name, this.lockName(threadId)])) ?? 0);
  }

  /** `remainTimeToLive()`: the lock's PTTL (-2 when free, -1 without expiry). */
  async remainTimeToLive(): Promise<number> {
    return Number(await this.peer.command(this.name, ['PTTL', this.name]));
  }

  /**
   * `tryAcquireAsync`: one attempt with the lease time or `internalLockLeaseTime`; taken with a
   * lease time, that lease becomes `internalLockLeaseTime`, taken without, the lock is renewed.
   */
  protected async tryAcquire(waitTime: number, leaseTime: number, threadId: number): Promise<number | null> {
    this.peer.assertRunning();
    const ttl = await this.tryLockInner(threadId, leaseTime > 0 ? leaseTime : this.internalLockLeaseTime, waitTime);
    if (ttl === null) {
      if (leaseTime > 0) this.internalLockLeaseTime = leaseTime;
      else this.scheduleExpirationRenewal(threadId);
    }
    return ttl;
  }

  /** Joins the pub/sub entry of a waiting thread. */
  protected subscribe(threadId: number): Promise<LockEntry> {
    return this.peer.pubSub.subscribe(this.entryName(threadId), this.waitChannel(threadId));
  }

  /** Leaves the pub/sub entry. */
  protected unsubscribe(entry: LockEntry, threadId: number): void {
    this.peer.pubSub.unsubscribe(entry, this.entryName(threadId));
  }

  /** `acquireFailedAsync`: what a wait that ran out does in Redis (nothing, except on a fair lock). */
  protected async acquireFailed(_waitTime: number, _threadId: number): Promise<void> {}

  /** `scheduleExpirationRenewal`: the {@link LockTask} renews the lock for this acquisition. */
  protected scheduleExpirationRenewal(threadId: number): void {
    this.peer.renewals.lockTask.add(this.name, this.lockName(threadId), threadId);
  }

  /**
   * `cancelExpirationRenewal`: one acquisition of `threadId` (every one when `null`) is no longer
   * renewed; after an unlock that freed the lock (or an unknown outcome) the lease is the
   * watchdog's again.
   */
  protected cancelExpirationRenewal(threadId: number | null, unlockResult: boolean | null): void {
    this.peer.renewals.lockTask.cancelExpirationRenewal(this.name, threadId);
    if (unlockResult === null || unlockResult) this.internalLockLeaseTime = this.peer.config.lockWatchdogTimeout;
  }

  async #failed(waitTime: number, threadId: number): Promise<false> {
    await this.acquireFailed(waitTime, threadId);
    return false;
  }
}

/** A reply of `EVAL_LONG`: nil stays `null`, anything else is a number. */
function asTtl(reply: RespValue): number | null {
  return reply === null ? null : Number(reply);
}

/** A reply of `EVAL_BOOLEAN`: nil stays `null`, 1 is `true`, anything else `false`. */
function asBoolean(reply: RespValue): boolean | null {
  return reply === null ? null : Number(reply) === 1;
}
