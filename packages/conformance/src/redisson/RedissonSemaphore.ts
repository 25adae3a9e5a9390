import type { LockEntry } from './LockPubSub.js';
import { semaphoreChannelName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';

/** Thrown before anything reaches Redis for a negative number of permits: Java's `IllegalArgumentException`. */
export class IllegalArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IllegalArgumentError';
  }
}

// The scripts' effects are Redisson's RedissonSemaphore's; the permits are a decimal string at
// the name, and every change but an acquisition publishes the permits it leaves on the channel.

// Takes ARGV[1] permits when at least that many are available: 1, else 0 (a missing key has none).
// KEYS: name. ARGV: permits.
const TRY_ACQUIRE = `
local available = redis.call('get', KEYS[1])
if not available or tonumber(available) < tonumber(ARGV[1]) then
  return 0
end
redis.call('decrby', KEYS[1], ARGV[1])
return 1`;

// Adds ARGV[1] permits with INCRBY and publishes the new value. KEYS: name, channel. ARGV: permits, publish command.
const RELEASE = `
redis.call(ARGV[2], KEYS[2], redis.call('incrby', KEYS[1], ARGV[1]))`;

// As RELEASE when the key exists (1); else nothing (0). KEYS: name, channel. ARGV: permits, publish command.
const RELEASE_IF_EXISTS = `
if redis.call('exists', KEYS[1]) == 0 then
  return 0
end
redis.call(ARGV[2], KEYS[2], redis.call('incrby', KEYS[1], ARGV[1]))
return 1`;

// Sets the permits to 0 and replies what there were; a missing key stays missing and replies 0. KEYS: name.
const DRAIN = `
local available = redis.call('get', KEYS[1])
if not available then
  return 0
end
redis.call('set', KEYS[1], 0)
return available`;

// Sets ARGV[1] permits (for ARGV[3] ms when given) and publishes ARGV[1] when the key is missing: 1;
// else nothing: 0. KEYS: name, channel. ARGV: permits, publish command[, time to live].
const TRY_SET_PERMITS = `
if redis.call('get', KEYS[1]) then
  return 0
end
if ARGV[3] then
  redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[3])
else
  redis.call('set', KEYS[1], ARGV[1])
end
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1`;

// Adds ARGV[1] (negative: takes away) to the permits, a missing key counting 0, with GET and SET
// (so a key's TTL is dropped), and publishes the sum. KEYS: name, channel. ARGV: permits, publish command.
const ADD_PERMITS = `
local sum = (redis.call('get', KEYS[1]) or 0) + ARGV[1]
redis.call('set', KEYS[1], sum)
redis.call(ARGV[2], KEYS[2], sum)`;

/**
 * Redisson's `RedissonSemaphore` (`RSemaphore`) as a Java client runs it: the same scripts'
 * behaviour, key, channel (`redisson_sc:{name}`) and waiting. Each call stands for a Java thread;
 * a semaphore has no owner, so no thread id is needed. Times are milliseconds.
 *
 * Waiting is Redisson's blocking `tryAcquire(permits, waitTime)` and `acquire(permits)`: try,
 * subscribe the channel through the peer's {@link SemaphorePubSub} (one entry per client and
 * semaphore), try again, then block on the entry's latch until a message lets the thread through
 * (or the wait time runs out) and loop. No attempt ever returns a TTL, so `acquire` sleeps until a
 * message comes: a lost message leaves it blocked, as in Redisson.
 */
export class RedissonSemaphore {
  /** The semaphore's name: the key of its permits. */
  readonly name: string;
  /** `redisson_sc:{name}` (`redisson_sc:name` when the name has a brace). */
  readonly channelName: string;
  readonly #peer: RedissonPeer;
  #attempts = 0;

  constructor(peer: RedissonPeer, name: string) {
    this.#peer = peer;
    this.name = name;
    this.channelName = semaphoreChannelName(name);
  }

  /** How many acquisition scripts this semaphore object has run (a waiter that spins shows here). */
  get attempts(): number {
    return this.#attempts;
  }

  /** `trySetPermits(permits)` (with `timeToLive` ms: `trySetPermits(permits, Duration)`): resolves whether it set them. */
  async trySetPermits(permits: number, timeToLive?: number): Promise<boolean> {
    const args = [permits, this.#peer.publishCommand, ...(timeToLive === undefined ? [] : [timeToLive])];
    return Number(await this.#eval(TRY_SET_PERMITS, args)) === 1;
  }

  /** `addPermits(permits)`: a negative number takes permits away. */
  async addPermits(permits: number): Promise<void> {
    await this.#eval(ADD_PERMITS, [permits, this.#peer.publishCommand]);
  }

  /** `availablePermits()`: 0 when the key is missing. */
  async availablePermits(): Promise<number> {
    this.#peer.assertRunning();
    return Number((await this.#peer.command(this.name, ['GET', this.name])) ?? 0);
  }

  /** `drainPermits()`: takes every available permit; resolves how many there were. */
  async drainPermits(): Promise<number> {
    this.#peer.assertRunning();
    return Number(await this.#peer.eval(DRAIN, [this.name], []));
  }

  /**
   * `tryAcquire(permits)` without a wait time: one attempt. With `waitTime` (ms), Redisson's
   * blocking `tryAcquire(permits, waitTime)`: resolves whether the permits were taken in time.
   *
   * @throws {@link IllegalArgumentError} for negative permits
   */
  async tryAcquire(permits = 1, waitTime?: number): Promise<boolean> {
    if (waitTime === undefined) return this.#tryAcquireOnce(permits);
    let time = waitTime;
    let current = performance.now();
    if (await this.#tryAcquireOnce(permits)) return true;
    time -= performance.now() - current;
    if (time <= 0) return false;
    current = performance.now();
    const entry = await this.#subscribe();
    try {
      time -= performance.now() - current;
      for (;;) {
        if (time <= 0) return false;
        current = performance.now();
        if (await this.#tryAcquireOnce(permits)) return true;
        time -= performance.now() - current;
        if (time <= 0) return false;
        current = performance.now();
        await entry.latch.tryAcquire(time);
        this.#peer.assertRunning();
        time -= performance.now() - current;
      }
    } finally {
      this.#unsubscribe(entry);
    }
  }

  /**
   * `acquire(permits)`: waits as long as it takes, each attempt after the first blocked on the
   * entry's latch until a message lets the thread through.
   *
   * @throws {@link IllegalArgumentError} for negative permits; {@link PeerShutdownError} when the peer shuts down
   */
  async acquire(permits = 1): Promise<void> {
    if (await this.#tryAcquireOnce(permits)) return;
    const entry = await this.#subscribe();
    try {
      while (!(await this.#tryAcquireOnce(permits))) {
        await entry.latch.acquire();
        this.#peer.assertRunning();
      }
    } finally {
      this.#unsubscribe(entry);
    }
  }

  /**
   * `release(permits)`: INCRBY and a publish of the new value; 0 does nothing.
   *
   * @throws {@link IllegalArgumentError} for negative permits
   */
  async release(permits = 1): Promise<void> {
    checkPermits(permits);
    if (permits === 0) return;
    await this.#eval(RELEASE, [permits, this.#peer.publishCommand]);
  }

  /**
   * `releaseIfExists(permits)`: as `release` when the semaphore's key exists; resolves whether it did.
   *
   * @throws {@link IllegalArgumentError} for negative permits
   */
  async releaseIfExists(permits: number): Promise<boolean> {
    checkPermits(permits);
    if (permits === 0) return false;
    return Number(await this.#eval(RELEASE_IF_EXISTS, [permits, this.#peer.publishCommand])) === 1;
  }

  // tryAcquireAsync(permits): one acquisition script; 0 permits succeed without one.
  async #tryAcquireOnce(permits: number): Promise<boolean> {
    checkPermits(permits);
    if (permits === 0) return true;
    this.#attempts++;
    return Number(await this.#peer.eval(TRY_ACQUIRE, [this.name], [permits])) === 1;
  }

  // Runs a script that changes the permits and publishes them: KEYS are the name and the channel.
  #eval(script: string, args: readonly (string | number)[]): ReturnType<RedissonPeer['eval']> {
    this.#peer.assertRunning();
    return this.#peer.eval(script, [this.name, this.channelName], args);
  }

  #subscribe(): Promise<LockEntry> {
    this.#peer.assertRunning();
    return this.#peer.semaphorePubSub.subscribe(this.name, this.channelName);
  }

  #unsubscribe(entry: LockEntry): void {
    this.#peer.semaphorePubSub.unsubscribe(entry, this.name);
  }
}

function checkPermits(permits: number): void {
  if (permits < 0) throw new IllegalArgumentError("Permits amount can't be negative");
}
