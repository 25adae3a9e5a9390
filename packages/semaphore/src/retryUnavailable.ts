import { setTimeout as sleep } from 'node:timers/promises';
import { RedisUnavailableError } from '@deadbolt/core';

/**
 * How often a request that counts once per request id is sent before its failure is final: the
 * first try and four more.
 */
export const IDEMPOTENT_TRIES = 5;

/**
 * The pause before the n-th retry is n times this (ms): 100, 200, 300, 400, a second in all, so
 * that the tries outlast a connection that drops and comes back rather than all failing on it.
 */
const RETRY_STEP_MS = 100;

/**
 * Runs `send` until it resolves, or until it has failed `tries` times with
 * `RedisUnavailableError`, or `open()` says the client is closing; any other error ends it at
 * once. Only for a request that counts once however often it reaches Redis: a failed try may have
 * run, or may not have reached Redis (node-redis rejects what it had written when the connection
 * drops, and does not send it again).
 */
export async function retryUnavailable<Reply>(tries: number, open: () => boolean, send: () => Promise<Reply>): Promise<Reply> {
  for (let tried = 1; ; tried++) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof RedisUnavailableError) || tried >= tries || !open()) throw error;
    }
    await sleep(tried * RETRY_STEP_MS);
  }
}
