/**
 * Runs `fn` while `held` is held and releases it afterwards, also when `fn` throws. A failing
 * `fn` is the news: its error wins over a release that fails after it. What every `withLock`
 * shares, single locks and groups of locks alike. For lock kind authors.
 *
 * @returns what `fn` returns, once the release succeeded
 * @throws what `fn` throws, else what `held.release()` throws
 */
export async function releaseAfter<T>(held: { release(): Promise<void> }, fn: () => T | Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await fn();
  } catch (error) {
    await held.release().catch(() => undefined);
    throw error;
  }
  await held.release();
  return result;
}
