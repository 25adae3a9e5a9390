// The pub/sub wait of a lock with local hand-offs (issue 34), on fake timers: a pass that comes
// while an attempt is in flight, a pass that comes as the wait ends otherwise, the wake a waiter
// that leaves without the lock passes on, and the client's hold-off.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Passed, Receiver } from '../src/handoff/HandoffReceiver.js';
import { waitToAcquire, type AcquireLoop } from '../src/lock/acquisition/waitToAcquire.js';
import { FakeSubscription } from './fakeLockRuntime.js';

// A mark of a channel subscribed before the first attempt (the fake subscription decides what it missed).
const MARK = { channel: 'channel' };

const taken = (hold: string): Passed<null> => ({ hold, grant: null, acquiredAt: 0 });

/** A receiver whose passes the test makes: `pass` offers a hold (or nothing) and ends the sleep. */
class FakeReceiver implements Receiver<null> {
  interrupt: (() => void) | undefined;
  enlisted = 0;
  closed = false;
  #offer: Promise<Passed<null> | null> | undefined;

  enlist(): void {
    if (!this.closed) this.enlisted++;
  }

  close(): void {
    this.closed = true;
  }

  collect(): Promise<Passed<null> | null> | undefined {
    const offer = this.#offer;
    this.#offer = undefined;
    return offer;
  }

  pass(passed: Passed<null> | null): void {
    this.#offer = Promise.resolve(passed);
    this.interrupt?.();
  }
}

function lockLoop(overrides: Partial<AcquireLoop<null>> = {}) {
  const subscription = new FakeSubscription();
  const receiver = new FakeReceiver();
  const given: string[] = [];
  const loop: AcquireLoop<null> = {
    join: async () => subscription,
    channel: 'channel',
    waitTime: Infinity,
    signal: undefined,
    attempt: async () => 10_000,
    giveBack: async (hold) => {
      given.push(hold.hold);
    },
    receiver,
    ...overrides,
  };
  return { loop, subscription, receiver, given };
}

describe('waitToAcquire', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('a pass while the waiter sleeps is the hold: no attempt after it, nothing given back', async () => {
    const attempt = vi.fn(async () => 10_000);
    const { loop, subscription, receiver, given } = lockLoop({ attempt });
    const waiting = waitToAcquire(loop);
    await vi.advanceTimersByTimeAsync(0);
    expect(subscription.sleeps).toEqual([10_000]);
    receiver.pass(taken('passed'));
    expect(await waiting).toEqual(taken('passed'));
    expect(attempt).toHaveBeenCalledTimes(2);
    expect(given).toEqual([]);
    expect(receiver.closed).toBe(true);
    expect(subscription.released).toBe(true);
  });

  it('after a first attempt on a channel that missed nothing since, sleeps with no second attempt', async () => {
    const attempt = vi.fn(async () => 10_000);
    const { loop, subscription } = lockLoop({ attempt, firstTtl: 5_000, firstMark: MARK });
    void waitToAcquire(loop);
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt).not.toHaveBeenCalled();
    expect(subscription.sleeps).toEqual([5_000]);
  });

  it('after a first attempt on a channel that had a message since, tries again before the sleep', async () => {
    const attempt = vi.fn(async () => 10_000);
    const { loop, subscription } = lockLoop({ attempt, firstTtl: 5_000, firstMark: MARK });
    subscription.messagesSinceMark = 1;
    void waitToAcquire(loop);
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt).toHaveBeenCalledTimes(1);
    expect(subscription.sleeps).toEqual([10_000]);
  });

  it('a pass that came before the sleep began ends it at once: the hold, with no sleep', async () => {
    const { loop, subscription, receiver } = lockLoop({ firstTtl: 5_000, firstMark: MARK });
    const waiting = waitToAcquire({
      ...loop,
      join: async () => {
        receiver.pass(taken('passed'));
        return subscription;
      },
    });
    expect(await waiting).toEqual(taken('passed'));
    expect(subscription.sleeps).toEqual([]);
  });

  it('a pass while an attempt that also took the lock was in flight: one hold is enough, the pass goes back', async () => {
    const { loop, receiver, given } = lockLoop();
    let attempts = 0;
    const waiting = waitToAcquire({
      ...loop,
      attempt: async () => {
        if (++attempts < 2) return 10_000;
        receiver.pass(taken('passed'));
        return taken('attempted');
      },
    });
    expect(await waiting).toEqual(taken('attempted'));
    await vi.advanceTimersByTimeAsync(0);
    expect(given).toEqual(['passed']);
  });

  it('a pass while a failed attempt was in flight counts', async () => {
    const { loop, receiver, given } = lockLoop();
    let attempts = 0;
    const waiting = waitToAcquire({
      ...loop,
      attempt: async () => {
        if (++attempts === 2) receiver.pass(taken('passed'));
        return 10_000;
      },
    });
    expect(await waiting).toEqual(taken('passed'));
    expect(given).toEqual([]);
  });

  it('a pass that came to nothing enlists the waiter again, and the wait goes on', async () => {
    const { loop, subscription, receiver } = lockLoop();
    const waiting = waitToAcquire(loop);
    await vi.advanceTimersByTimeAsync(0);
    expect(receiver.enlisted).toBe(1);
    receiver.pass(null);
    await vi.advanceTimersByTimeAsync(0);
    expect(receiver.enlisted).toBe(2);
    expect(subscription.sleeps).toHaveLength(2);
    receiver.pass(taken('passed'));
    expect(await waiting).toEqual(taken('passed'));
  });

  it('a pass that comes as an abort ends the wait goes back, and an unused wake is passed on', async () => {
    const controller = new AbortController();
    const { loop, subscription, receiver, given } = lockLoop({ signal: controller.signal });
    const waiting = waitToAcquire(loop);
    const outcome = expect(waiting).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(0);
    // Woken by a release, then aborted before the attempt the wake called for came back.
    let release: (ttl: number) => void = () => undefined;
    loop.attempt = () => new Promise((resolve) => (release = resolve));
    subscription.wake();
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error('stop'));
    receiver.pass(taken('late'));
    release(10_000);
    await outcome;
    expect(given).toEqual(['late']);
    expect(subscription.passedWakes).toBe(1);
  });

  it('while the client holds off from the lock it makes no attempt, and sleeps the hold-off', async () => {
    const attempt = vi.fn(async () => taken('attempted'));
    let holdOff = 30;
    const { loop, subscription } = lockLoop({ attempt, holdOff: () => holdOff });
    const waiting = waitToAcquire(loop);
    await vi.advanceTimersByTimeAsync(0);
    expect(attempt).not.toHaveBeenCalled();
    expect(subscription.sleeps).toEqual([30]);
    holdOff = 0;
    await vi.advanceTimersByTimeAsync(30);
    expect(await waiting).toEqual(taken('attempted'));
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});
