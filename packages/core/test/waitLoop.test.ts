// The one wait-loop skeleton (issue 34) that the lock's pub/sub wait, its polling wait and
// waitOnChannel share: attempt, sleep or set up, attempt again; on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitLoop, type Sleep, type WaitLoop } from '../src/lock/acquisition/waitLoop.js';

const HOLD = { hold: 'h1' };
const PASSED = { hold: 'passed' };

/** A loop whose lock stays held (TTL `ttl`) for `freeAfter` attempts, recording what it did. */
function loop(overrides: Partial<WaitLoop<typeof HOLD>> & { freeAfter?: number; ttl?: number } = {}) {
  const log: string[] = [];
  let attempts = 0;
  const sleeper: Sleep<typeof HOLD> = async (ms, failed) => {
    log.push(`sleep ${ms} after ${failed}`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    return undefined;
  };
  const giveBack = vi.fn(async () => undefined);
  const wait: WaitLoop<typeof HOLD> = {
    waitTime: Infinity,
    signal: undefined,
    attempt: async () => {
      log.push(`attempt at ${performance.now()}`);
      return ++attempts > (overrides.freeAfter ?? Infinity) ? HOLD : (overrides.ttl ?? 1_000);
    },
    sleeper,
    giveBack,
    ...overrides,
  };
  return { wait, log, giveBack };
}

describe('waitLoop', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('returns the hold of a first attempt that took it, without sleeping', async () => {
    const { wait, log } = loop({ freeAfter: 0 });
    expect(await waitLoop(wait)).toBe(HOLD);
    expect(log).toEqual(['attempt at 0']);
  });

  it("sleeps the holder's TTL between attempts, counting the failed ones, and returns the hold", async () => {
    const { wait, log } = loop({ freeAfter: 2, ttl: 300 });
    const taking = waitLoop(wait);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(HOLD);
    expect(log).toEqual(['attempt at 0', 'sleep 300 after 1', 'attempt at 300', 'sleep 300 after 2', 'attempt at 600']);
  });

  it('never sleeps past the end of the wait, then gives up: undefined', async () => {
    const onBusy = vi.fn();
    const { wait, log } = loop({ waitTime: 500, ttl: 300, onBusy });
    const taking = waitLoop(wait);
    await vi.runAllTimersAsync();
    expect(await taking).toBeUndefined();
    expect(log).toEqual(['attempt at 0', 'sleep 300 after 1', 'attempt at 300', 'sleep 200 after 2', 'attempt at 500']);
    expect(onBusy).toHaveBeenCalledTimes(3);
  });

  it('a wait time of 0 is the one attempt', async () => {
    const { wait, log } = loop({ waitTime: 0 });
    expect(await waitLoop(wait)).toBeUndefined();
    expect(log).toEqual(['attempt at 0']);
  });

  it('a first attempt made before the loop counts as its first', async () => {
    const { wait, log } = loop({ first: 100, freeAfter: 0 });
    const taking = waitLoop(wait);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(HOLD);
    expect(log).toEqual(['sleep 100 after 1', 'attempt at 100']);
  });

  it('the wait is counted from `since`', async () => {
    await vi.advanceTimersByTimeAsync(400);
    const { wait, log } = loop({ waitTime: 500, since: 0, ttl: 1_000 });
    const taking = waitLoop(wait);
    await vi.runAllTimersAsync();
    expect(await taking).toBeUndefined();
    expect(log).toEqual(['attempt at 400', 'sleep 100 after 1', 'attempt at 500']);
  });

  it('sets the wait up after the first failed attempt and tries again at once, then sleeps as the set-up says', async () => {
    const { wait: base, log } = loop({ freeAfter: 2, ttl: 50 });
    const setUp = vi.fn(async () => {
      log.push('set up');
      return base.sleeper as Sleep<typeof HOLD>;
    });
    const taking = waitLoop({ ...base, sleeper: { setUp } });
    await vi.runAllTimersAsync();
    expect(await taking).toBe(HOLD);
    expect(setUp).toHaveBeenCalledTimes(1);
    expect(log).toEqual(['attempt at 0', 'set up', 'attempt at 0', 'sleep 50 after 2', 'attempt at 50']);
  });

  it('sleeps at once after a set-up that says nothing was missed since the failed attempt', async () => {
    const { wait: base, log } = loop({ freeAfter: 1, ttl: 50 });
    const onBusy = vi.fn();
    const taking = waitLoop({
      ...base,
      onBusy,
      sleeper: { setUp: async () => base.sleeper as Sleep<typeof HOLD>, missedNothing: () => true },
    });
    await vi.runAllTimersAsync();
    expect(await taking).toBe(HOLD);
    expect(log).toEqual(['attempt at 0', 'sleep 50 after 1', 'attempt at 50']);
    expect(onBusy).toHaveBeenCalledTimes(1);
  });

  it('a set-up comes even when the wait has no time left: the attempt after it is what catches a release in between', async () => {
    const { wait: base, log } = loop({ waitTime: 10, ttl: 50 });
    const taking = waitLoop({
      ...base,
      attempt: async () => {
        log.push(`attempt at ${performance.now()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 50;
      },
      sleeper: { setUp: async () => base.sleeper as Sleep<typeof HOLD> },
    });
    await vi.runAllTimersAsync();
    expect(await taking).toBeUndefined();
    expect(log).toEqual(['attempt at 0', 'attempt at 20']);
  });

  it('returns a hold that came during a sleep, with no attempt after it', async () => {
    const { wait, log } = loop({ sleeper: async () => PASSED });
    expect(await waitLoop(wait)).toBe(PASSED);
    expect(log).toEqual(['attempt at 0']);
  });

  it('an abort mid-sleep rejects with its reason', async () => {
    const controller = new AbortController();
    const { wait, log } = loop({
      signal: controller.signal,
      sleeper: () =>
        new Promise((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason))),
    });
    const taking = waitLoop(wait);
    const outcome = expect(taking).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('stop'));
    await outcome;
    expect(log).toEqual(['attempt at 0']);
  });

  it('an abort that races a successful attempt wins: the hold is given back', async () => {
    const controller = new AbortController();
    const { wait, giveBack } = loop({
      signal: controller.signal,
      attempt: async () => {
        controller.abort(new Error('too late'));
        return HOLD;
      },
    });
    await expect(waitLoop(wait)).rejects.toThrow('too late');
    expect(giveBack).toHaveBeenCalledWith(HOLD);
  });

  it('without giveBack, a hold an abort raced is returned for the caller to deal with', async () => {
    const controller = new AbortController();
    const { wait } = loop({
      signal: controller.signal,
      giveBack: undefined,
      attempt: async () => {
        controller.abort(new Error('too late'));
        return HOLD;
      },
    });
    expect(await waitLoop(wait)).toBe(HOLD);
  });

  it('an already aborted signal rejects before any attempt', async () => {
    const { wait, log } = loop({ signal: AbortSignal.abort(new Error('never mind')) });
    await expect(waitLoop(wait)).rejects.toThrow('never mind');
    expect(log).toEqual([]);
  });

  it("an attempt's failure ends the wait with it", async () => {
    const { wait } = loop({
      attempt: async () => {
        throw new Error('redis down');
      },
    });
    await expect(waitLoop(wait)).rejects.toThrow('redis down');
  });
});
