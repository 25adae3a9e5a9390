import type { RespArgument, RespValue } from '@deadbolt/test-harness';
import type { LockEntry } from './LockPubSub.js';
import { semaphoreChannelName, suffixName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';
import { IllegalArgumentError } from './RedissonSemaphore.js';

/** Redisson's `nonExpirableTimeout`: the score of a permit taken without a lease time. */
const NON_EXPIRABLE_TIMEOUT = 922337203685477;

// The scripts' effects are Redisson's RedissonPermitExpirableSemaphore's. KEYS of every script:
// the free permits (a decimal string at the name), the held permits ({name}:timeout, a sorted set
// of permit id bytes scored by the wall-clock ms their lease ends), the channel redisson_sc:{name}.

// reclaim(now, publish, limit): held permits whose lease ended (score <= now; at most `limit`
// when given) go back to the free count, which is published when positive. Returns the new free
// count, or nil when none ended.
const RECLAIM = `
local function reclaim(now, publish, limit)
  local expired = redis.call('zrangebyscore', KEYS[2], 0, now, 'limit', 0, limit or -1)
  if #expired == 0 then
    return nil
  end
  redis.call('zrem', KEYS[2], unpack(expired))
  local free = redis.call('incrby', KEYS[1], #expired)
  if free > 0 then
    redis.call(publish, KEYS[3], free)
  end
  return free
end`;

// Reclaims at most ARGV[1] ended permits, then takes ARGV[1] permits under the ids ARGV[6..] with
// score ARGV[2] ('OK'), giving the held set the free count's TTL if it has one. Else ':<score>' of
// the earliest held permit unless it never expires, else nil.
// ARGV: count, lease end, now, NON_EXPIRABLE_TIMEOUT, publish command, ids...
const TRY_ACQUIRE = `${RECLAIM}
reclaim(ARGV[3], ARGV[5], ARGV[1])
local free = redis.call('get', KEYS[1])
if free and tonumber(free) >= tonumber(ARGV[1]) then
  redis.call('decrby', KEYS[1], ARGV[1])
  for i = 6, #ARGV do
    redis.call('zadd', KEYS[2], ARGV[2], ARGV[i])
  end
  local ttl = redis.call('pttl', KEYS[1])
  if ttl > 0 then
    redis.call('pexpire', KEYS[2], ttl)
  end
  return 'OK'
end
local earliest = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
if earliest[2] and earliest[2] ~= ARGV[4] then
  return ':' .. earliest[2]
end
return nil`;

// Gives one permit back (INCRBY 1, publish of the new count) when ARGV[1] is held: 1, or 0 when
// its lease had ended (given back all the same); 0 when it is not held. No reclaim.
// ARGV: id, now, publish command.
const TRY_RELEASE = `
local expiry = redis.call('zscore', KEYS[2], ARGV[1])
if redis.call('zrem', KEYS[2], ARGV[1]) ~= 1 then
  return 0
end
redis.call(ARGV[3], KEYS[3], redis.call('incrby', KEYS[1], 1))
if tonumber(expiry) <= tonumber(ARGV[2]) then
  return 0
end
return 1`;

// Gives back the permits ARGV[3..] when every one is held and unexpired, after reclaiming the
// ended ones; publishes how many were given back (not the free count). Replies that number, or 0.
// ARGV: now, publish command, ids...
const TRY_RELEASE_MANY = `${RECLAIM}
for i = 3, #ARGV do
  local expiry = redis.call('zscore', KEYS[2], ARGV[i])
  if not expiry or tonumber(expiry) <= tonumber(ARGV[1]) then
    return 0
  end
end
reclaim(ARGV[1], ARGV[2])
local removed = redis.call('zrem', KEYS[2], unpack(ARGV, 3))
redis.call('incrby', KEYS[1], removed)
redis.call(ARGV[2], KEYS[3], removed)
return removed`;

// After a reclaim: the free permits (0 without a key). ARGV: now, publish command.
const AVAILABLE = `${RECLAIM}
return reclaim(ARGV[1], ARGV[2]) or tonumber(redis.call('get', KEYS[1]) or 0)`;

// After a reclaim: how many permits are held. ARGV: now, publish command.
const ACQUIRED = `${RECLAIM}
reclaim(ARGV[1], ARGV[2])
return redis.call('zcard', KEYS[2])`;

// After a reclaim: free plus held (0 without a free-count key). ARGV: now, publish command.
const PERMITS = `${RECLAIM}
reclaim(ARGV[1], ARGV[2])
local free = redis.call('get', KEYS[1])
if not free then
  return 0
end
return tonumber(free) + redis.call('zcard', KEYS[2])`;

// Sets the free count ARGV[1] and publishes it when there is none: 1; else 0. ARGV: permits, publish command.
const TRY_SET_PERMITS = `
if redis.call('get', KEYS[1]) then
  return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[3], ARGV[1])
return 1`;

// Adds ARGV[1] to the free count (a missing key counts 0) with SET; publishes ARGV[1], the
// number added, only when positive. ARGV: permits, publish command.
const ADD_PERMITS = `
redis.call('set', KEYS[1], tonumber(redis.call('get', KEYS[1]) or 0) + tonumber(ARGV[1]))
if tonumber(ARGV[1]) > 0 then
  redis.call(ARGV[2], KEYS[3], ARGV[1])
end`;

// After a reclaim: gives the held permit ARGV[1] the lease end ARGV[2]: 1, or 0 when it is not
// held. ARGV: id, lease end, now, publish command.
const UPDATE_LEASE = `${RECLAIM}
reclaim(ARGV[3], ARGV[4])
if not redis.call('zscore', KEYS[2], ARGV[1]) then
  return 0
end
redis.call('zadd', KEYS[2], ARGV[2], ARGV[1])
return 1`;

// After a reclaim: the lease left of the held permit ARGV[1] in ms, -1 when it never expires,
// 0 when it is not held. ARGV: id, NON_EXPIRABLE_TIMEOUT, now, publish command.
const LEASE_TIME = `${RECLAIM}
reclaim(ARGV[3], ARGV[4])
local expiry = redis.call('zscore', KEYS[2], ARGV[1])
if not expiry then
  return 0
end
if tonumber(expiry) == tonumber(ARGV[2]) then
  return -1
end
return tonumber(expiry) - tonumber(ARGV[3])`;

/**
 * Redisson's `RedissonPermitExpirableSemaphore` (`RPermitExpirableSemaphore`) as a Java client
 * runs it: the same scripts' behaviour, keys (the free count at the name, the held permits in
 * `{name}:timeout`), channel (`redisson_sc:{name}`, shared with `RSemaphore`) and waiting. A
 * permit id is 16 random bytes, handed out as 32 hex digits and stored as the bytes. Times are
 * milliseconds; a lease time of -1 means none (the permit never expires).
 *
 * Waiting is Redisson's blocking `tryAcquire(permits, waitTime, leaseTime)` and
 * `acquire(permits, leaseTime)`: a failed attempt tells when the earliest held permit's lease ends
 * (if any does), and the thread blocks on the {@link SemaphorePubSub} entry's latch until a message
 * or that moment (or the wait time left), then tries again.
 */
export class RedissonPermitExpirableSemaphore {
  /** The semaphore's name: the key of its free permits. */
  readonly name: string;
  /** `{name}:timeout`: the held permits. */
  readonly timeoutName: string;
  /** `redisson_sc:{name}`. */
  readonly channelName: string;
  readonly #peer: RedissonPeer;

  constructor(peer: RedissonPeer, name: string) {
    this.#peer = peer;
    this.name = name;
    this.timeoutName = suffixName(name, 'timeout');
    this.channelName = semaphoreChannelName(name);
  }

  /** `trySetPermits(permits)`: resolves whether the free count was set (there was none). */
  async trySetPermits(permits: number): Promise<boolean> {
    return Number(await this.#eval(TRY_SET_PERMITS, [permits, this.#peer.publishCommand])) === 1;
  }

  /** `addPermits(permits)`: a negative number takes free permits away. */
  async addPermits(permits: number): Promise<void> {
    await this.#eval(ADD_PERMITS, [permits, this.#peer.publishCommand]);
  }

  /** `availablePermits()`: the free permits, after reclaiming those whose lease ended. */
  async availablePermits(): Promise<number> {
    return Number(await this.#eval(AVAILABLE, [Date.now(), this.#peer.publishCommand]));
  }

  /** `acquiredPermits()`: the held permits, after reclaiming those whose lease ended. */
  async acquiredPermits(): Promise<number> {
    return Number(await this.#eval(ACQUIRED, [Date.now(), this.#peer.publishCommand]));
  }

  /** `getPermits()`: free plus held, after reclaiming those whose lease ended. */
  async getPermits(): Promise<number> {
    return Number(await this.#eval(PERMITS, [Date.now(), this.#peer.publishCommand]));
  }

  /**
   * `tryAcquire(permits, waitTime, leaseTime)`: resolves the ids of the permits taken, or `[]`
   * when too few came free within `waitTime` (0: one attempt).
   *
   * @throws {@link IllegalArgumentError} for negative permits
   */
  async tryAcquire(permits = 1, waitTime = 0, leaseTime = -1): Promise<string[]> {
    let time = waitTime;
    let current = performance.now();
    const first = await this.#attempt(permits, leaseTime);
    if (Array.isArray(first)) return first;
    time -= performance.now() - current;
    if (time <= 0) return [];
    current = performance.now();
    const entry = await this.#subscribe();
    try {
      time -= performance.now() - current;
      for (;;) {
        if (time <= 0) return [];
        current = performance.now();
        const attempt = await this.#attempt(permits, leaseTime);
        if (Array.isArray(attempt)) return attempt;
        time -= performance.now() - current;
        if (time <= 0) return [];
        current = performance.now();
        await entry.latch.tryAcquire(attempt === null ? time : Math.min(time, attempt));
        this.#peer.assertRunning();
        time -= performance.now() - current;
      }
    } finally {
      this.#unsubscribe(entry);
    }
  }

  /**
   * `acquire(permits, leaseTime)`: waits as long as it takes; resolves the ids of the permits taken.
   *
   * @throws {@link IllegalArgumentError} for negative permits; {@link PeerShutdownError} when the peer shuts down
   */
  async acquire(permits = 1, leaseTime = -1): Promise<string[]> {
    const first = await this.#attempt(permits, leaseTime);
    if (Array.isArray(first)) return first;
    const entry = await this.#subscribe();
    try {
      for (;;) {
        const attempt = await this.#attempt(permits, leaseTime);
        if (Array.isArray(attempt)) return attempt;
        if (attempt === null) await entry.latch.acquire();
        else await entry.latch.tryAcquire(attempt);
        this.#peer.assertRunning();
      }
    } finally {
      this.#unsubscribe(entry);
    }
  }

  /** `tryRelease(permitId)`: whether the permit was held and its lease had not ended (an ended one is given back all the same). */
  async tryRelease(permitId: string): Promise<boolean> {
    return Number(await this.#eval(TRY_RELEASE, [idBytes(permitId), Date.now(), this.#peer.publishCommand])) === 1;
  }

  /** `tryRelease(permitIds)`: how many were given back; 0 (and none) unless every one is held and unexpired. */
  async tryReleaseAll(permitIds: readonly string[]): Promise<number> {
    if (permitIds.length === 0) throw new IllegalArgumentError("permitIds can't be null or empty");
    return Number(
      await this.#eval(TRY_RELEASE_MANY, [Date.now(), this.#peer.publishCommand, ...permitIds.map(idBytes)]),
    );
  }

  /**
   * `release(permitId)` or `release(permitIds)`.
   *
   * @throws {@link IllegalArgumentError} when a permit was released already, expired or never taken
   */
  async release(permitIds: string | readonly string[]): Promise<void> {
    const ids = typeof permitIds === 'string' ? [permitIds] : permitIds;
    const released =
      typeof permitIds === 'string' ? await this.tryRelease(permitIds) : (await this.tryReleaseAll(ids)) === ids.length;
    if (!released)
      throw new IllegalArgumentError(`Permits with ids ${ids.join(', ')} have already been released or don't exist`);
  }

  /** `updateLeaseTime(permitId, leaseTime)`: whether the permit is held (its lease now ends `leaseTime` ms from now). */
  async updateLeaseTime(permitId: string, leaseTime: number): Promise<boolean> {
    return (
      Number(
        await this.#eval(UPDATE_LEASE, [idBytes(permitId), leaseEnd(leaseTime), Date.now(), this.#peer.publishCommand]),
      ) === 1
    );
  }

  /**
   * `getLeaseTime(permitId)`: the lease left in ms, -1 for a permit without one.
   *
   * @throws {@link IllegalArgumentError} when the permit is not held
   */
  async getLeaseTime(permitId: string): Promise<number> {
    const args = [idBytes(permitId), NON_EXPIRABLE_TIMEOUT, Date.now(), this.#peer.publishCommand];
    const left = Number(await this.#eval(LEASE_TIME, args));
    if (left === 0)
      throw new IllegalArgumentError(`Permit with id ${permitId} has already been released or doesn't exist`);
    return left;
  }

  // One acquisition script: the ids taken, else the ms until the earliest held permit's lease
  // ends, else null (no held permit expires).
  async #attempt(permits: number, leaseTime: number): Promise<string[] | number | null> {
    if (permits < 0) throw new IllegalArgumentError("Permits amount can't be negative");
    const ids = Array.from({ length: permits }, () => this.#peer.generateId());
    const args = [
      permits,
      leaseEnd(leaseTime),
      Date.now(),
      NON_EXPIRABLE_TIMEOUT,
      this.#peer.publishCommand,
      ...ids.map(idBytes),
    ];
    const reply = await this.#eval(TRY_ACQUIRE, args);
    // Taking 0 permits "succeeds" with no ids, which Redisson reads as nothing taken: it waits on.
    if (reply === 'OK') return ids.length > 0 ? ids : null;
    return typeof reply === 'string' && reply.startsWith(':') ? Number(reply.slice(1)) - Date.now() : null;
  }

  #eval(script: string, args: readonly RespArgument[]): Promise<RespValue> {
    this.#peer.assertRunning();
    return this.#peer.command(this.name, ['EVAL', script, 3, this.name, this.timeoutName, this.channelName, ...args]);
  }

  #subscribe(): Promise<LockEntry> {
    this.#peer.assertRunning();
    return this.#peer.semaphorePubSub.subscribe(this.name, this.channelName);
  }

  #unsubscribe(entry: LockEntry): void {
    this.#peer.semaphorePubSub.unsubscribe(entry, this.name);
  }
}

// calcTimeout: the wall-clock ms a lease of `leaseTime` ends, or NON_EXPIRABLE_TIMEOUT for -1.
function leaseEnd(leaseTime: number): number {
  return leaseTime === -1 ? NON_EXPIRABLE_TIMEOUT : Date.now() + leaseTime;
}

// A permit id as Redisson sends it: the bytes its hex digits stand for.
function idBytes(permitId: string): Buffer {
  return Buffer.from(permitId, 'hex');
}
