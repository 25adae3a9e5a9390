import { NEW_COUNT_MESSAGE, ZERO_COUNT_MESSAGE, type CountDownLatchEntry } from './CountDownLatchPubSub.js';
import { countDownLatchChannelName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';

// The scripts' effects are Redisson's RedissonCountDownLatch's: the count is a decimal string at
// the name; none of them remembers a request (Redisson does not re-send a countdown).

// Sets the count ARGV[2] and publishes ARGV[1] (new count) when the latch has none: 1; else 0.
// KEYS: name, channel. ARGV: message, count, publish command.
const TRY_SET_COUNT = `
if redis.call('exists', KEYS[1]) == 1 then
  return 0
end
redis.call('set', KEYS[1], ARGV[2])
redis.call(ARGV[3], KEYS[2], ARGV[1])
return 1`;

// DECR; at or below zero the key goes; exactly at zero ARGV[1] (zero count) is published. Replies nil.
// KEYS: name, channel. ARGV: message, publish command.
const COUNT_DOWN = `
local left = redis.call('decr', KEYS[1])
if left <= 0 then
  redis.call('del', KEYS[1])
end
if left == 0 then
  redis.call(ARGV[2], KEYS[2], ARGV[1])
end`;

// Deletes the latch and publishes ARGV[1] (new count) when it existed: 1; else 0.
// KEYS: name, channel. ARGV: message, publish command.
const DELETE = `
if redis.call('del', KEYS[1]) == 0 then
  return 0
end
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1`;

/**
 * Redisson's `RedissonCountDownLatch` (`RCountDownLatch`) as a Java client runs it: the same
 * scripts' behaviour, key, channel (`redisson_countdownlatch__channel__{name}`, braces whatever
 * the name) and messages (`0` when a countdown reaches zero, `1` when a count is set or the latch
 * deleted). Each call stands for a Java thread. Times are milliseconds.
 *
 * Waiting is Redisson's blocking `await()` and `await(time)`: read the count, subscribe through the
 * peer's {@link CountDownLatchPubSub} (one entry per client and latch), and while the count is
 * positive block on the entry's gate, which message `0` opens and `1` closes. A deleted latch
 * announces a new count, which does not open the gate: its waiting threads stay blocked.
 */
export class RedissonCountDownLatch {
  /** The latch's name: the key of its count. */
  readonly name: string;
  /** `redisson_countdownlatch__channel__{name}`. */
  readonly channelName: string;
  readonly #peer: RedissonPeer;

  constructor(peer: RedissonPeer, name: string) {
    this.#peer = peer;
    this.name = name;
    this.channelName = countDownLatchChannelName(name);
  }

  /** The pub/sub entry of a waiting thread: the client id followed by the name. */
  get entryName(): string {
    return `${this.#peer.id}${this.name}`;
  }

  /** `trySetCount(count)`: resolves whether the count was set (the latch had none). */
  async trySetCount(count: number): Promise<boolean> {
    return Number(await this.#eval(TRY_SET_COUNT, [NEW_COUNT_MESSAGE, count, this.#peer.publishCommand])) === 1;
  }

  /** `countDown()`. */
  async countDown(): Promise<void> {
    await this.#eval(COUNT_DOWN, [ZERO_COUNT_MESSAGE, this.#peer.publishCommand]);
  }

  /** `delete()`: resolves whether the latch existed. */
  async delete(): Promise<boolean> {
    return Number(await this.#eval(DELETE, [NEW_COUNT_MESSAGE, this.#peer.publishCommand])) === 1;
  }

  /** `getCount()`: 0 when the latch has no count. */
  async getCount(): Promise<number> {
    this.#peer.assertRunning();
    return Number((await this.#peer.command(this.name, ['GET', this.name])) ?? 0);
  }

  /**
   * `await(time)` with `waitTime` ms: resolves `true` once the count is read as zero (or below),
   * `false` when the time ran out first. Without `waitTime`, `await()`: waits as long as it takes
   * and resolves `true`.
   *
   * @throws {@link PeerShutdownError} when the peer shuts down while the thread waits
   */
  async await(waitTime = Infinity): Promise<boolean> {
    let remaining = waitTime;
    let current = performance.now();
    if ((await this.getCount()) === 0) return true;
    const entry = await this.#subscribe();
    try {
      remaining -= performance.now() - current;
      if (remaining <= 0) return false;
      while ((await this.getCount()) > 0) {
        if (remaining <= 0) return false;
        current = performance.now();
        await entry.latch.await(remaining);
        this.#peer.assertRunning();
        remaining -= performance.now() - current;
      }
      return true;
    } finally {
      this.#unsubscribe(entry);
    }
  }

  // Runs a script on the name and the channel.
  #eval(script: string, args: readonly (string | number)[]): ReturnType<RedissonPeer['eval']> {
    this.#peer.assertRunning();
    return this.#peer.eval(script, [this.name, this.channelName], args);
  }

  #subscribe(): Promise<CountDownLatchEntry> {
    this.#peer.assertRunning();
    return this.#peer.countDownLatchPubSub.subscribe(this.entryName, this.channelName);
  }

  #unsubscribe(entry: CountDownLatchEntry): void {
    this.#peer.countDownLatchPubSub.unsubscribe(entry, this.entryName);
  }
}
