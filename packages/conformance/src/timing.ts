import type { LockClient } from '@deadbolt/core';

/**
 * The watchdog timeout of tests that need a hold renewed, or not yet expired, across several calls
 * or a second or more. A renewal's reply must come within a third of it, so a loaded machine's
 * event-loop stall of that much ends the hold: with 300 ms, a stall of about 100 ms would.
 */
export const RENEWED_WATCHDOG_MS = 600;

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it holds or `timeout` ms pass; returns whether it held. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeout = 3_000,
  every = 25,
): Promise<boolean> {
  const deadline = performance.now() + timeout;
  for (;;) {
    if (await check()) return true;
    if (performance.now() > deadline) return false;
    await sleep(every);
  }
}

/**
 * Resolves once `client`'s waiters have joined their one channel and had time to go to sleep on
 * it: then a release is what wakes them, or passes them the lock, rather than their own attempt.
 */
export async function waitersAsleep(client: LockClient): Promise<void> {
  await eventually(() => client.activity().channels.length === 1);
  await sleep(50);
}
