/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts; either way no
 * timer and no listener is left. For lock kind and lock group authors: a spin lock's backoff, a
 * group's retry delay.
 */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
