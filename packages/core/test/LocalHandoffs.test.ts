// Local hand-offs without Redis: which waiter a release passes to, the limits of a run of passes,
// and the option's checks (issue 16). Real hand-offs are in the conformance suite (localHandoff).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../src/errors/LockError.js';
import { DEFAULT_LOCAL_HANDOFF, resolveLocalHandoffOptions } from '../src/handoff/LocalHandoffOptions.js';
import { LocalHandoffs, type Claim, type HandoffStreak, type LocalWaiter } from '../src/handoff/LocalHandoffs.js';

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
    expect(claimed(handoffs.claim('lock\norders', undefined)).receiver).toBe(a);
    expect(claimed(handoffs.claim('lock\norders', undefined)).receiver).toBe(b);
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
    const first = claimed(handoffs.claim('k', undefined));
    expect(first.streak).toEqual({ passes: 1, since: performance.now() });
    const second = claimed(handoffs.claim('k', first.streak));
    expect(second.streak.passes).toBe(2);
    expect(handoffs.claim('k', second.streak)).toBe('runEnded');
    // The release went to everyone; a holder that took the lock itself starts a new run.
    expect(claimed(handoffs.claim('k', undefined)).streak.passes).toBe(1);
  });

  it('ends a run maxMillis after its first pass', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 100, maxMillis: 50 });
    handoffs.enlist('k', waiter());
    handoffs.enlist('k', waiter());
    const streak: HandoffStreak = claimed(handoffs.claim('k', undefined)).streak;
    vi.advanceTimersByTime(49);
    expect(claimed(handoffs.claim('k', streak)).streak.passes).toBe(2);
    handoffs.enlist('k', waiter());
    vi.advanceTimersByTime(1);
    expect(handoffs.claim('k', streak)).toBe('runEnded');
  });

  it('a run ends only where a local waiter was left waiting', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 1, maxMillis: 1_000 });
    handoffs.enlist('k', waiter());
    const streak = claimed(handoffs.claim('k', undefined)).streak;
    expect(handoffs.claim('k', streak)).toBeUndefined();
  });

  it("holds off this client's waiters of a lock from before the run-ending release is sent until one round trip after its reply", () => {
    const handoffs = new LocalHandoffs({ maxPasses: 1, maxMillis: 5 });
    expect(handoffs.holdOff('k')).toBe(0);
    // No round trip measured yet: two of 1 ms guessed.
    const sent = handoffs.beginStepBack('k');
    expect(handoffs.holdOff('k')).toBe(2);
    expect(handoffs.holdOff('other')).toBe(0);
    vi.advanceTimersByTime(1.5);
    handoffs.endStepBack('k', sent, true);
    expect(handoffs.holdOff('k')).toBe(1.5);
    vi.advanceTimersByTime(1.5);
    expect(handoffs.holdOff('k')).toBe(0);
    // The next guess is two of the last round trip, at most maxMillis.
    handoffs.beginStepBack('k');
    expect(handoffs.holdOff('k')).toBe(3);
    vi.advanceTimersByTime(4);
    handoffs.endStepBack('k', performance.now() - 4, true);
    expect(handoffs.holdOff('k')).toBe(4);
    handoffs.beginStepBack('k');
    expect(handoffs.holdOff('k')).toBe(5);
  });

  it('a run-ending release that did not free the lock (or failed) holds nobody off', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 1, maxMillis: 5 });
    const sent = handoffs.beginStepBack('k');
    handoffs.endStepBack('k', sent, false);
    expect(handoffs.holdOff('k')).toBe(0);
    expect(handoffs.stepsBack).toBe(0);
  });

  it('keeps only the step-backs still running', () => {
    const handoffs = new LocalHandoffs({ maxPasses: 1, maxMillis: 5 });
    for (let i = 0; i < 1_000; i++) {
      handoffs.endStepBack(`lock ${i}`, handoffs.beginStepBack(`lock ${i}`), true);
      vi.advanceTimersByTime(3);
    }
    handoffs.beginStepBack('last');
    expect(handoffs.stepsBack).toBe(1);
  });
});

function claimed(claim: ReturnType<LocalHandoffs['claim']>): Claim {
  if (typeof claim !== 'object') throw new Error(`expected a claim, got ${String(claim)}`);
  return claim;
}

describe('localHandoff option', () => {
  it('tells whether another owner of the client holds a lock, counting re-entries, each end once', () => {
    const handoffs = new LocalHandoffs(DEFAULT_LOCAL_HANDOFF);
    const outer = handoffs.stand('lock\norders', 'c:a');
    const inner = handoffs.stand('lock\norders', 'c:a');
    expect(handoffs.heldByAnother('lock\norders', 'c:a')).toBe(false);
    expect(handoffs.heldByAnother('lock\norders', 'c:b')).toBe(true);
    expect(handoffs.heldByAnother('lock\ninvoices', 'c:b')).toBe(false);
    inner();
    inner();
    expect(handoffs.heldByAnother('lock\norders', 'c:b')).toBe(true);
    // A hold of a second owner, which a lost hold of the first may leave standing beside it.
    const other = handoffs.stand('lock\norders', 'c:b');
    expect(handoffs.heldByAnother('lock\norders', 'c:a')).toBe(true);
    expect(handoffs.heldByAnother('lock\norders', 'c:b')).toBe(true);
    outer();
    expect(handoffs.heldByAnother('lock\norders', 'c:b')).toBe(false);
    other();
    expect(handoffs.heldByAnother('lock\norders', 'c:a')).toBe(false);
  });

  it('is on by default, off with false, and takes limits', () => {
    expect(resolveLocalHandoffOptions(undefined)).toEqual({ maxPasses: 4, maxMillis: 20 });
    expect(resolveLocalHandoffOptions(true)).toEqual(DEFAULT_LOCAL_HANDOFF);
    expect(resolveLocalHandoffOptions(false)).toBeUndefined();
    expect(resolveLocalHandoffOptions({ maxPasses: 3 })).toEqual({ maxPasses: 3, maxMillis: 20 });
    expect(resolveLocalHandoffOptions({ maxMillis: 5 })).toEqual({ maxPasses: 4, maxMillis: 5 });
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
