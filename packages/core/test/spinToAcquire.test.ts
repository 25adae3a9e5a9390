// The polling wait of kinds without pub/sub (issue 18): the backoff's delays, the wait's deadline,
// aborts, and what is left behind, on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../src/errors/LockError.js';
import {
  BACKOFF_JITTER,
  DEFAULT_BACKOFF,
  exponentialBackoff,
  spinToAcquire,
  type Backoff,
  type SpinLoop,
} from '../src/lock/spinToAcquire.js';

const HELD_LONG = 60_000;

/** A lock that stays held for `freeAfter` attempts, recording when each attempt ran. */
function pollingLoop(overrides: Partial<SpinLoop> & { freeAfter?: number } = {}) {
  const attempts: number[] = [];
  const undo = vi.fn(() => Promise.resolve(undefined));
  const freeAfter = overrides.freeAfter ?? Infinity;
  const loop: SpinLoop = {
    backoff: { delay: () => 10 },
    waitTime: Infinity,
    signal: undefined,
    attempt: () => {
      attempts.push(performance.now());
      return Promise.resolve(attempts.length > freeAfter ? null : HELD_LONG);
    },
    undo,
    ...overrides,
  };
  return { loop, attempts, undo };
}

const gaps = (times: readonly number[]) => times.slice(1).map((time, i) => time - times[i]!);

describe('exponentialBackoff', () => {
  it("starts at Redisson's defaults (1, 2, 4, ... up to 128 ms) with no jitter drawn", () => {
    const backoff = exponentialBackoff(undefined, 'backoff', () => 0);
    expect(Array.from({ length: 10 }, (_, i) => backoff.delay(i + 1))).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 128, 128]);
    expect(DEFAULT_BACKOFF).toEqual({ initialDelay: 1, maxDelay: 128, multiplier: 2 });
  });

  it('grows to the cap and keeps every delay within the jitter bounds', () => {
    const backoff = exponentialBackoff({ initialDelay: 5, maxDelay: 300, multiplier: 3 });
    for (let failed = 1; failed <= 40; failed++) {
      const full = Math.min(300, 5 * 3 ** (failed - 1));
      for (let draw = 0; draw < 20; draw++) {
        const delay = backoff.delay(failed);
        expect(delay).toBeGreaterThan(full * (1 - BACKOFF_JITTER) - 1e-9);
        expect(delay).toBeLessThanOrEqual(full);
      }
    }
    // The largest draw takes the most jitter off.
    expect(exponentialBackoff({ initialDelay: 100 }, 'backoff', () => 0.999_999).delay(1)).toBeCloseTo(
      100 * (1 - BACKOFF_JITTER),
      3,
    );
  });

  it('a maxDelay left out is at least the initial delay', () => {
    expect(exponentialBackoff({ initialDelay: 500 }, 'backoff', () => 0).delay(4)).toBe(500);
  });

  it.each([
    [{ initialDelay: 0 }, 'options.backoff.initialDelay'],
    [{ initialDelay: 1.5 }, 'options.backoff.initialDelay'],
    [{ maxDelay: Number.NaN }, 'options.backoff.maxDelay'],
    [{ initialDelay: 50, maxDelay: 10 }, 'options.backoff.maxDelay'],
    [{ multiplier: 0.5 }, 'options.backoff.multiplier'],
    [{ multiplier: Infinity }, 'options.backoff.multiplier'],
    [{ multiplier: '2' }, 'options.backoff.multiplier'],
    [{ initialdelay: 1 }, 'options.backoff'],
    ['fast', 'options.backoff'],
  ])('refuses %j, naming %s', (options, argument) => {
    const refuse = () => exponentialBackoff(options as never, 'options.backoff');
    expect(refuse).toThrow(InvalidArgumentError);
    expect(refuse).toThrow(argument);
  });
});

describe('spinToAcquire', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('sleeps each delay of the backoff between attempts, and resolves true once taken', async () => {
    const delays = [3, 7, 20, 50];
    const backoff: Backoff = { delay: (failed) => delays[failed - 1]! };
    const { loop, attempts } = pollingLoop({ backoff, freeAfter: 4 });
    const taking = spinToAcquire(loop);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(true);
    expect(gaps(attempts)).toEqual(delays);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with an exponential backoff the gaps grow to the cap, inside the jitter bounds', async () => {
    const { loop, attempts } = pollingLoop({
      backoff: exponentialBackoff({ initialDelay: 4, maxDelay: 64, multiplier: 2 }),
      freeAfter: 9,
    });
    const taking = spinToAcquire(loop);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(true);
    const full = [4, 8, 16, 32, 64, 64, 64, 64, 64];
    expect(gaps(attempts)).toHaveLength(full.length);
    gaps(attempts).forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(full[i]! * (1 - BACKOFF_JITTER) - 1e-9);
      expect(gap).toBeLessThanOrEqual(full[i]!);
    });
  });

  it('never sleeps past the deadline: a last attempt at the deadline, then false', async () => {
    const { loop, attempts } = pollingLoop({ backoff: { delay: () => 30 }, waitTime: 100 });
    const taking = spinToAcquire(loop);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(false);
    expect(attempts).toEqual([0, 30, 60, 90, 100]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sleeps no longer than the holder has left', async () => {
    let calls = 0;
    const { loop, attempts } = pollingLoop({
      backoff: { delay: () => 1_000 },
      attempt: () => {
        attempts.push(performance.now());
        return Promise.resolve(++calls > 2 ? null : 15);
      },
    });
    const taking = spinToAcquire(loop);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(true);
    expect(gaps(attempts)).toEqual([15, 15]);
  });

  it('a first attempt made before counts as the first: no second attempt at once', async () => {
    const { loop, attempts } = pollingLoop({ firstTtl: HELD_LONG, freeAfter: 0 });
    const taking = spinToAcquire(loop);
    await vi.runAllTimersAsync();
    expect(await taking).toBe(true);
    expect(attempts).toEqual([10]);
  });

  it('a wait time of 0 is the one attempt: false with no timer set', async () => {
    const { loop, attempts } = pollingLoop({ waitTime: 0 });
    expect(await spinToAcquire(loop)).toBe(false);
    expect(attempts).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reports every attempt that found the lock held', async () => {
    const onBusy = vi.fn();
    const { loop } = pollingLoop({ onBusy, freeAfter: 3 });
    const taking = spinToAcquire(loop);
    await vi.runAllTimersAsync();
    await taking;
    expect(onBusy).toHaveBeenCalledTimes(3);
  });

  it('an abort mid-sleep rejects with its reason at once and leaves no timer', async () => {
    const controller = new AbortController();
    const { loop, attempts } = pollingLoop({ backoff: { delay: () => 10_000 }, signal: controller.signal });
    const taking = spinToAcquire(loop);
    const outcome = expect(taking).rejects.toThrow('gave up');
    await vi.advanceTimersByTimeAsync(1);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error('gave up'));
    await outcome;
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(attempts).toHaveLength(1);
  });

  it('an abort that races a successful attempt wins: the hold goes back', async () => {
    const controller = new AbortController();
    const { loop, undo } = pollingLoop({
      signal: controller.signal,
      firstTtl: HELD_LONG,
      attempt: () => {
        controller.abort(new Error('too late'));
        return Promise.resolve(null);
      },
    });
    const taking = spinToAcquire(loop);
    const outcome = expect(taking).rejects.toThrow('too late');
    await vi.runAllTimersAsync();
    await outcome;
    expect(undo).toHaveBeenCalledTimes(1);
  });

  it('an already aborted signal rejects before any attempt', async () => {
    const { loop, attempts } = pollingLoop({ signal: AbortSignal.abort(new Error('never mind')) });
    await expect(spinToAcquire(loop)).rejects.toThrow('never mind');
    expect(attempts).toEqual([]);
  });
});
