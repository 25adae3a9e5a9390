// Sending a request that counts once per request id again (issue 30): only after
// RedisUnavailableError, at most ONCE_TRIES times, within the window after the first send (while
// a copy is still recognised by the first run's record), and never once the client is closing.
import { describe, expect, it } from 'vitest';
import { LockError, RedisUnavailableError } from '../src/errors/LockError.js';
import { ONCE_TRIES, runOnce, runUntilLanded } from '../src/runtime/runOnce.js';

/** A send that fails with each of `errors` in turn, then resolves 'sent'; counts its tries. */
function failing(...errors: Error[]) {
  const state = { tries: 0 };
  const send = () => {
    const error = errors[state.tries++];
    return error === undefined ? Promise.resolve('sent') : Promise.reject(error);
  };
  return { state, send };
}

const unavailable = () => new RedisUnavailableError('connection reset');
const open = { window: 60_000, open: () => true };

describe('runOnce', () => {
  it('sends again after RedisUnavailableError until the request goes through', async () => {
    const { state, send } = failing(unavailable(), unavailable());
    expect(await runOnce(send, open)).toBe('sent');
    expect(state.tries).toBe(3);
  });

  it(`gives up after ${ONCE_TRIES} failures, with the last error`, async () => {
    const { state, send } = failing(...Array.from({ length: ONCE_TRIES }, unavailable));
    await expect(runOnce(send, open)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(state.tries).toBe(ONCE_TRIES);
  });

  it('does not send again past the window, after another error, or once the client is closing', async () => {
    const late = failing(unavailable());
    await expect(runOnce(late.send, { window: 50, open: () => true })).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(late.state.tries).toBe(1);
    const other = failing(new LockError('Redis rejected the script'));
    await expect(runOnce(other.send, open)).rejects.toThrow('Redis rejected the script');
    expect(other.state.tries).toBe(1);
    const closing = failing(unavailable());
    await expect(runOnce(closing.send, { window: 60_000, open: () => false })).rejects.toBeInstanceOf(
      RedisUnavailableError,
    );
    expect(closing.state.tries).toBe(1);
  });
});

describe('runUntilLanded', () => {
  it('sends again after RedisUnavailableError for as long as the client is open, beyond runOnce tries', async () => {
    const { state, send } = failing(...Array.from({ length: ONCE_TRIES + 2 }, unavailable));
    expect(await runUntilLanded(send, { longestPause: 1, open: () => true })).toBe('sent');
    expect(state.tries).toBe(ONCE_TRIES + 3);
  });

  it('stops once the client is closing, or at another error', async () => {
    let open = true;
    const closing = failing(unavailable(), unavailable(), unavailable());
    const landing = runUntilLanded(
      () => {
        // The client closes while the second try is in flight: no third.
        if (closing.state.tries === 1) open = false;
        return closing.send();
      },
      { longestPause: 1, open: () => open },
    );
    await expect(landing).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(closing.state.tries).toBe(2);
    const other = failing(new LockError('Redis rejected the script'));
    await expect(runUntilLanded(other.send, { longestPause: 1, open: () => true })).rejects.toThrow(
      'Redis rejected the script',
    );
  });
});
