import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServerClock, serverMs } from '../src/clock/ServerClock.js';
import { RedisUnavailableError } from '../src/errors/LockError.js';
import type { CommandArguments, Executor } from '../src/executor/Executor.js';

// The client's estimate of the server's clock, on fake timers: a deadline errs late (it counts the
// probe's whole round trip as if the server had read its clock at the probe's send), and the
// estimate is learned again when it is old.

const SERVER_EPOCH_MS = 1_700_000_000_000;

/** An executor whose server clock runs `skew` ms ahead of the fake monotonic clock; TIME answers after `roundTrip` ms. */
function serverWithClock(skew: number, roundTrip: number) {
  const asked: string[] = [];
  const executor: Executor = {
    isCluster: false,
    evalsha: () => Promise.resolve(null),
    eval: () => Promise.resolve(null),
    command: (key: string, args: CommandArguments) => {
      asked.push(`${args.join(' ')} @${key}`);
      // The server reads its clock half way through the round trip.
      const readAt = SERVER_EPOCH_MS + skew + performance.now() + roundTrip / 2;
      return new Promise((resolve) =>
        setTimeout(() => resolve([String(Math.floor(readAt / 1000)), String((readAt % 1000) * 1000)]), roundTrip),
      );
    },
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
  return { executor, asked };
}

describe('ServerClock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes deadlines on the server clock that are late by at most the probe round trip', async () => {
    const { executor, asked } = serverWithClock(5_000, 40);
    const clock = new ServerClock(executor, 1_000);
    expect(clock.known).toBe(false);
    expect(() => clock.deadline(1_000, 'k')).toThrow(/before the clock was learned/);
    const learning = clock.learn('{a}k');
    await vi.advanceTimersByTimeAsync(40);
    await learning;
    expect(asked).toEqual(['TIME @{a}k']);
    const serverNow = SERVER_EPOCH_MS + 5_000 + performance.now();
    const deadline = clock.deadline(1_000, '{a}k');
    expect(deadline - (serverNow + 1_000)).toBeGreaterThanOrEqual(0);
    expect(deadline - (serverNow + 1_000)).toBeLessThanOrEqual(40 + 1);
  });

  it('learns the clock again in the background once the estimate is a minute old, and once per relearn', async () => {
    const { executor, asked } = serverWithClock(0, 10);
    const clock = new ServerClock(executor, 1_000);
    const learning = clock.learn('k');
    await vi.advanceTimersByTimeAsync(10);
    await learning;
    clock.deadline(1_000, 'k');
    expect(asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_001);
    clock.deadline(1_000, 'k');
    clock.deadline(1_000, 'k');
    await vi.advanceTimersByTimeAsync(10);
    expect(asked).toHaveLength(2);
    clock.relearn('k');
    await vi.advanceTimersByTimeAsync(10);
    expect(asked).toHaveLength(3);
  });

  it('fails a probe Redis does not answer in time with RedisUnavailableError', async () => {
    const { executor } = serverWithClock(0, 5_000);
    const clock = new ServerClock(executor, 1_000);
    const learning = clock.learn('k');
    const failed = expect(learning).rejects.toBeInstanceOf(RedisUnavailableError);
    await vi.advanceTimersByTimeAsync(1_000);
    await failed;
    expect(clock.known).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
  });

  it('reads TIME replies as milliseconds and refuses anything else', () => {
    expect(serverMs(['1700000000', '123456'])).toBe(1_700_000_000_123);
    expect(() => serverMs('nope')).toThrow(/Unexpected TIME reply/);
  });
});
