// The retry of requests that count once per request id (issue 18): only RedisUnavailableError is
// tried again, at most `tries` times, and never once the client is closing.
import { LockError, RedisUnavailableError } from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import { retryUnavailable } from '../src/retryUnavailable.js';

/** A send that fails with each of `errors` in turn, then resolves 'sent'; counts its tries. */
function failing(...errors: Error[]) {
  const state = { tries: 0 };
  const send = async () => {
    const error = errors[state.tries++];
    if (error !== undefined) throw error;
    return 'sent';
  };
  return { state, send };
}

const unavailable = () => new RedisUnavailableError('connection reset');

describe('retryUnavailable', () => {
  it('tries again after RedisUnavailableError until the request goes through', async () => {
    const { state, send } = failing(unavailable(), unavailable());
    expect(await retryUnavailable(3, () => true, send)).toBe('sent');
    expect(state.tries).toBe(3);
  });

  it('gives up after `tries` failures, with the last error', async () => {
    const { state, send } = failing(unavailable(), unavailable(), unavailable());
    await expect(retryUnavailable(2, () => true, send)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(state.tries).toBe(2);
  });

  it('does not try again after another error, or once the client is closing', async () => {
    const other = failing(new LockError('Redis rejected the script'));
    await expect(retryUnavailable(5, () => true, other.send)).rejects.toThrow('Redis rejected the script');
    expect(other.state.tries).toBe(1);
    const closing = failing(unavailable());
    await expect(retryUnavailable(5, () => false, closing.send)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(closing.state.tries).toBe(1);
  });
});
