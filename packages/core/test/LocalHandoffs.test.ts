// Local hand-offs without Redis: which waiter a release passes to, the limits of a run of passes,
// and the option's checks (issue 16). Real hand-offs are in the conformance suite (localHandoff).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../src/errors/LockError.js';
import { DEFAULT_LOCAL_HANDOFF, resolveLocalHandoffOptions } from '../src/handoff/LocalHandoffOptions.js';
import { LocalHandoffs, type HandoffStreak, type LocalWaiter } from '../src/handoff/LocalHandoffs.js';

function waiter(): LocalWaiter {
  return { interrupt: undefined, receiveFrom: () => Promise.resolve(true) };
}

describe('LocalHandoffs', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['performance'] }));
  afterEach(() => vi.useRealTimers());

  it('passes to the waiters of the same lock in the order they enlisted, each once', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 10, maxMillis: 1_000 });
    const [a, b, other] = [waiter(), waiter(), waiter()];
    handoffs.enlist('lock\norders', a);
    handoffs.enlist('lock\norders', b);
    handoffs.enlist('lock\ninvoices', other);
    expect(handoffs.claim('lock\norders', undefined)?.receiver).toBe(a);
    expect(handoffs.claim('lock\norders', undefined)?.receiver).toBe(b);
    expect(handoffs.claim('lock\norders', undefined)).toBeUndefined();
    expect(handoffs.claim('fenced\ninvoices', undefined)).toBeUndefined();
    expect(handoffs.size).toBe(1);
  });

  it('a delisted waiter is passed nothing, and an empty lock is forgotten', () => {
    const handoffs = new LocalHandoffs(DEFAULT_LOCAL_HANDOFF);
    const a = waiter();
    handoffs.enlist('k', a);
    handoffs.delist('k', a);
    handoffs.delist('k', a);
    expect(handoffs.claim('k', undefined)).toBeUndefined();
    expect(handoffs.size).toBe(0);
  });

  it('counts a run of passes from the first, and ends it at maxPasses', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 2, maxMillis: 1_000 });
    handoffs.enlist('k', waiter());
    handoffs.enlist('k', waiter());
    handoffs.enlist('k', waiter());
    const first = handoffs.claim('k', undefined);
    expect(first?.streak).toEqual({ passes: 1, since: performance.now() });
    const second = handoffs.claim('k', first?.streak);
    expect(second?.streak.passes).toBe(2);
    expect(handoffs.claim('k', second?.streak)).toBeUndefined();
    // The release went to everyone; a holder that took the lock itself starts a new run.
    expect(handoffs.claim('k', undefined)?.streak.passes).toBe(1);
  });

  it('ends a run maxMillis after its first pass', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 100, maxMillis: 50 });
    handoffs.enlist('k', waiter());
    handoffs.enlist('k', waiter());
    const streak: HandoffStreak | undefined = handoffs.claim('k', undefined)?.streak;
    vi.advanceTimersByTime(49);
    expect(handoffs.claim('k', streak)?.streak.passes).toBe(2);
    handoffs.enlist('k', waiter());
    vi.advanceTimersByTime(1);
    expect(handoffs.claim('k', streak)).toBeUndefined();
  });
});

describe('localHandoff option', () => {
  it('is on by default, off with false, and takes limits', () => {
    expect(resolveLocalHandoffOptions(undefined)).toEqual({ maxPasses: 8, maxMillis: 20 });
    expect(resolveLocalHandoffOptions(true)).toEqual(DEFAULT_LOCAL_HANDOFF);
    expect(resolveLocalHandoffOptions(false)).toBeUndefined();
    expect(resolveLocalHandoffOptions({ maxPasses: 3 })).toEqual({ maxPasses: 3, maxMillis: 20 });
    expect(resolveLocalHandoffOptions({ maxMillis: 5 })).toEqual({ maxPasses: 8, maxMillis: 5 });
  });

  it.each([
    [{ maxPasses: 0 }, 'options.localHandoff.maxPasses'],
    [{ maxPasses: 1.5 }, 'options.localHandoff.maxPasses'],
    [{ maxPasses: '2' }, 'options.localHandoff.maxPasses'],
    [{ maxMillis: 0 }, 'options.localHandoff.maxMillis'],
    [{ maxMillis: Infinity }, 'options.localHandoff.maxMillis'],
    [{ maxpasses: 2 }, 'options.localHandoff.maxpasses'],
    ['yes', 'options.localHandoff'],
    [null, 'options.localHandoff'],
  ])('rejects %j naming %s', (value, argument) => {
    expect(() => resolveLocalHandoffOptions(value)).toThrow(InvalidArgumentError);
    expect(() => resolveLocalHandoffOptions(value)).toThrow(argument);
  });
});
