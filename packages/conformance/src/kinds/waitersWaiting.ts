import type { LockClient } from '@deadbolt/core';
import { eventually, sleep } from '../timing.js';
import type { SingleLockKind } from './RegisteredKind.js';

/**
 * How long a test lets a polling waiter (a kind whose `waiterChannels` is `none`) run before it
 * acts on the lock: a few of its attempts at the default backoff. Such a waiter shows nothing
 * from outside; a test that acts sooner only tests an earlier moment of the same wait.
 */
const POLLING_WAITER_SETTLE_MS = 50;

/** Whether the kind's waiters wait on pub/sub channels, woken by messages that its releases publish. */
export function wakesByPubSub(kind: SingleLockKind): boolean {
  return kind.waiterChannels !== 'none';
}

/**
 * Resolves once `client`'s waiters of a lock of `kind` wait: once they have joined `channels`
 * channels (one by default), for a kind woken by pub/sub; after {@link POLLING_WAITER_SETTLE_MS},
 * for a kind whose waiters poll.
 */
export async function waitersWaiting(kind: SingleLockKind, client: LockClient, channels = 1): Promise<void> {
  if (!wakesByPubSub(kind)) return sleep(POLLING_WAITER_SETTLE_MS);
  await eventually(() => client.activity().channels.length === channels);
}
