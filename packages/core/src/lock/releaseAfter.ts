import { LockLostError, LockNotHeldError } from '../errors/LockError.js';

/**
 * Runs `fn` while `held` is held and releases it afterwards, also when `fn` throws. What every
 * `withLock` shares, single locks and groups of locks alike. For lock kind authors.
 *
 * Which error wins:
 * - `fn` threw: its error (the release is still tried, and its failure ignored).
 * - The lock was lost while `fn` ran: the `LockLostError`, even when `fn` returned normally,
 *   because the loss is the news: `fn`'s work may have overlapped the next holder's. That is the
 *   signal's reason when the holder was told, else a `LockLostError` made from the release that
 *   found the hold gone (its lease ran out or it was force-unlocked just before).
 * - Otherwise what the release throws (Redis unreachable, say).
 *
 * @returns what `fn` returns, once the release succeeded
 */
export async function releaseAfter<T>(held: { readonly signal: AbortSignal; release(): Promise<void> }, fn: () => T | Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await held.release().catch(() => undefined);
    throw error;
  }
  try {
    await held.release();
  } catch (error) {
    if (held.signal.aborted) throw held.signal.reason;
    if (error instanceof LockNotHeldError) {
      throw new LockLostError(`The lock was lost before the withLock callback returned: ${error.message}`, { lockName: error.lockName, cause: error });
    }
    throw error;
  }
  if (held.signal.aborted) throw held.signal.reason;
  return result;
}
