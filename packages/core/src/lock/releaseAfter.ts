/**
 * Runs `fn` while `held` is held and releases it afterwards, also when `fn` throws. What every
 * `withLock` shares, single locks and groups of locks alike. For lock kind authors: `held` must
 * release as `HeldLock` does, rejecting with its signal's `LockLostError` when it was lost.
 *
 * Which error wins:
 * - `fn` rejected because the hold's signal aborted: the signal's `LockLostError` itself, whatever
 *   API the signal went through: the reason itself (`fetch`, `signal.throwIfAborted()`), an error
 *   whose `cause` chain holds it (Node's `AbortError` from `node:timers/promises`, `events.once`,
 *   streams), or an `AbortError` that carries no cause (an API that drops the reason).
 * - `fn` threw anything else: its error (the release is still tried, and its failure ignored).
 * - `fn` returned, but the lock was lost meanwhile: the release rejects with the signal's
 *   `LockLostError`, because the loss is the news (`fn`'s work may have overlapped the next
 *   holder's); when the release itself finds the hold gone, with the `LockLostError` the signal
 *   aborts with then.
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
    const lost = held.signal.aborted && abortedBy(error, held.signal.reason);
    await held.release().catch(() => undefined);
    throw lost ? held.signal.reason : error;
  }
  // Rejects as the list above says: lost (also while `fn` ran), released by `fn`, Redis unreachable.
  await held.release();
  return result;
}

// Whether `error` is how an API reported the abort of a signal whose reason is `reason`.
function abortedBy(error: unknown, reason: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    if (current === reason) return true;
    seen.add(current);
  }
  return error instanceof Error && error.name === 'AbortError' && error.cause === undefined;
}
