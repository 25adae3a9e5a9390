import { LockLostError, LockNotHeldError } from '../errors/LockError.js';

/**
 * Runs `fn` while `held` is held and releases it afterwards, also when `fn` throws. What every
 * `withLock` shares, single locks and groups of locks alike. For lock kind authors.
 *
 * Which error wins:
 * - `fn` threw: its error (the release is still tried, and its failure ignored).
 * - The lock was lost while `fn` ran: a `LockLostError`, even when `fn` returned normally,
 *   because the loss is the news: `fn`'s work may have overlapped the next holder's. When the
 *   release found the hold gone, the error's `cause` is that release's `LockNotHeldError` (and its
 *   message the signal's, when the holder had been told); when the release still went through (a
 *   hold whose own lease ended while other holds of its owner kept the lock), it is the signal's
 *   reason itself.
 * - `fn` released the hold itself: the `LockNotHeldError` of releasing it again.
 * - Otherwise what the release throws (Redis unreachable, say).
 *
 * @returns what `fn` returns, once the release succeeded
 */
export async function releaseAfter<T>(
  held: { readonly signal: AbortSignal; readonly released: boolean; release(): Promise<void> },
  fn: () => T | Promise<T>,
): Promise<T> {
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await held.release().catch(() => undefined);
    throw error;
  }
  // Released by `fn` itself: no loss, just a second release, which says so.
  if (held.released) await held.release();
  try {
    await held.release();
  } catch (error) {
    if (error instanceof LockNotHeldError) {
      const told: unknown = held.signal.aborted ? held.signal.reason : undefined;
      const message =
        told instanceof Error
          ? told.message
          : `The lock was lost before the withLock callback returned: ${error.message}`;
      throw new LockLostError(message, { lockName: error.lockName, cause: error });
    }
    if (held.signal.aborted) throw held.signal.reason;
    throw error;
  }
  if (held.signal.aborted) throw held.signal.reason;
  return result;
}
