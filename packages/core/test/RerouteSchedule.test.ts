import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REROUTE_TRANSITIONS, RerouteSchedule } from '../src/adapter/RerouteSchedule.js';
import { checkTransition } from '../src/adapter/statusTransition.js';
import { flush } from './fakeSubscriber.js';

beforeEach(() => {
  // setImmediate stays real: flush() relies on it to run every pending promise callback.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
});

/** A schedule over reroutes that end when the test says so; `runs` records each one's `refreshFirst`. */
function schedule() {
  const runs: boolean[] = [];
  const ends: (() => void)[] = [];
  const reroutes = new RerouteSchedule((refreshFirst) => {
    runs.push(refreshFirst);
    return new Promise<void>((resolve) => ends.push(resolve));
  });
  /** Ends the oldest reroute still running, and lets the schedule react. */
  const end = async () => {
    ends.shift()?.();
    await flush();
  };
  return { reroutes, runs, end };
}

describe('RerouteSchedule', () => {
  it('goes idle, waiting, running, idle: one run after the first request’s delay', async () => {
    const { reroutes, runs, end } = schedule();
    expect(reroutes.status).toBe('idle');
    reroutes.request(1_000, false);
    // A request while waiting keeps the first delay, and only adds its refresh.
    reroutes.request(0, true);
    expect(reroutes.status).toBe('waiting');
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reroutes.status).toBe('running');
    expect(runs).toEqual([true]);
    await end();
    expect(reroutes.status).toBe('idle');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('goes running, rerunning, waiting: requests during a run come down to one more, after the shortest delay asked', async () => {
    const { reroutes, runs, end } = schedule();
    reroutes.request(0, false);
    await vi.advanceTimersByTimeAsync(0);
    reroutes.request(1_000, false);
    reroutes.request(1_000, true);
    expect(reroutes.status).toBe('rerunning');
    await end();
    expect(reroutes.status).toBe('waiting');
    // A recheck asked for in a second (a run's own, for a channel stranded on a node that is down)
    // waits that second: rerun at once, a node that stays down would be polled back to back.
    await vi.advanceTimersByTimeAsync(999);
    expect(runs).toEqual([false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reroutes.status).toBe('running');
    // The first run had no refresh asked for; the second has, and the flag does not outlive it.
    expect(runs).toEqual([false, true]);
    await end();
    expect(reroutes.status).toBe('idle');
    reroutes.request(0, false);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([false, true, false]);
    await end();
  });

  it('reruns at once when a request during a run asks for no delay', async () => {
    const { reroutes, runs, end } = schedule();
    reroutes.request(0, false);
    await vi.advanceTimersByTimeAsync(0);
    reroutes.request(1_000, true);
    // A node's connection came back, say: its channels move now, whatever recheck was asked before.
    reroutes.request(0, false);
    await end();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual([false, true]);
    await end();
  });

  it.each([
    ['idle', () => undefined],
    ['waiting', (reroutes: RerouteSchedule) => reroutes.request(1_000, false)],
  ] as const)('stops from %s for good: nothing runs afterwards', async (from, reach) => {
    const { reroutes, runs } = schedule();
    reach(reroutes);
    expect(reroutes.status).toBe(from);
    reroutes.stop();
    reroutes.stop();
    expect(reroutes.status).toBe('stopped');
    reroutes.request(0, true);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toEqual([]);
    expect(reroutes.status).toBe('stopped');
  });

  it.each([
    ['running', () => undefined],
    ['rerunning', (reroutes: RerouteSchedule) => reroutes.request(0, false)],
  ] as const)('stops from %s: the run under way finishes, and none follows', async (from, reach) => {
    const { reroutes, runs, end } = schedule();
    reroutes.request(0, false);
    await vi.advanceTimersByTimeAsync(0);
    reach(reroutes);
    expect(reroutes.status).toBe(from);
    reroutes.stop();
    await end();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toEqual([false]);
    expect(reroutes.status).toBe('stopped');
  });

  it('refuses, as a bug, every transition its table does not list', () => {
    expect(() => checkTransition('RerouteSchedule', REROUTE_TRANSITIONS, 'stopped', 'waiting')).toThrow(
      "RerouteSchedule: illegal status transition from 'stopped' to 'waiting'",
    );
    expect(() => checkTransition('RerouteSchedule', REROUTE_TRANSITIONS, 'idle', 'running')).toThrow(
      /from 'idle' to 'running'/,
    );
    expect(() => checkTransition('RerouteSchedule', REROUTE_TRANSITIONS, 'rerunning', 'idle')).toThrow(
      /from 'rerunning' to 'idle'/,
    );
  });
});
