// One round of a RedLock's attempts, on fake timers over attempts the test answers by hand.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { quorumRound } from '../src/quorumRound.js';

/** An attempt the test answers by hand. */
function attempt() {
  let grant: (held: string | null) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const promise = new Promise<string | null>((resolve, reject) => {
    grant = resolve;
    fail = reject;
  });
  return { promise, grant, fail };
}

describe('quorumRound', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is decided as soon as a quorum granted, with one timer for the round, the rest pending', async () => {
    const attempts = [attempt(), attempt(), attempt(), attempt(), attempt()];
    const round = quorumRound(
      attempts.map(({ promise }) => promise),
      3,
      500,
      undefined,
    );
    expect(vi.getTimerCount()).toBe(1);
    attempts[3]!.grant('d');
    attempts[2]!.grant(null);
    attempts[0]!.grant('a');
    attempts[4]!.grant('e');
    const outcome = await round;
    expect(outcome).toEqual({ granted: ['a', 'd', 'e'], pending: [attempts[1]!.promise], errors: [] });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('is decided at nodeTimeout without a quorum; what did not answer stays pending, what failed is listed', async () => {
    const attempts = [attempt(), attempt(), attempt(), attempt(), attempt()];
    let decided = false;
    const round = quorumRound(
      attempts.map(({ promise }) => promise),
      3,
      500,
      undefined,
    ).then((outcome) => {
      decided = true;
      return outcome;
    });
    const unreachable = new Error('unreachable');
    attempts[0]!.grant('a');
    attempts[1]!.fail(unreachable);
    attempts[2]!.grant('c');
    await vi.advanceTimersByTimeAsync(499);
    expect(decided).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await round).toEqual({
      granted: ['a', 'c'],
      pending: [attempts[3]!.promise, attempts[4]!.promise],
      errors: [unreachable],
    });
  });

  it('is decided once a quorum can no longer be reached, and when the signal aborts', async () => {
    const refused = [attempt(), attempt(), attempt()];
    const hopeless = quorumRound(
      refused.map(({ promise }) => promise),
      2,
      500,
      undefined,
    );
    refused[0]!.grant(null);
    refused[1]!.grant(null);
    expect((await hopeless).pending).toEqual([refused[2]!.promise]);
    const controller = new AbortController();
    const waiting = [attempt(), attempt(), attempt()];
    const aborted = quorumRound(
      waiting.map(({ promise }) => promise),
      2,
      500,
      controller.signal,
    );
    controller.abort();
    expect((await aborted).pending).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });
});
