/** Options of {@link waitFor}. */
export interface WaitOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Pause between attempts. Default 50 ms. */
  readonly intervalMs?: number;
  /** Finishes the sentence "timed out waiting until ..." in the error. */
  readonly description: string;
}

/**
 * Polls `check` until it returns true. A check that throws counts as "not yet" (servers refuse
 * connections while starting); the last such error is attached to the timeout error.
 */
export async function waitFor(check: () => Promise<boolean> | boolean, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting until ${options.description}${reason}`, {
        cause: lastError,
      });
    }
    await sleep(options.intervalMs ?? 50);
  }
}

/** Resolves after `ms`; the timer keeps the event loop alive, which waits on a child rely on. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
