/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds or `timeout` ms pass; returns whether it held. */
export async function eventually(check: () => Promise<boolean> | boolean, timeout = 3_000, every = 25): Promise<boolean> {
  const deadline = performance.now() + timeout;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > deadline) return false;
    await sleep(every);
  }
}
