import type { Backend } from '@deadbolt/conformance';
import type { ConformantLock } from '@deadbolt/conformance/kinds';
import { eventually } from '@deadbolt/conformance';
import type { LockClient } from '@deadbolt/core';
import { expect } from 'vitest';

/**
 * After every wait has ended and every hold was released: no client renews anything or waits on
 * a channel, no channel is subscribed on any server, and no lock is held.
 */
export async function expectNothingLeft(
  backend: Backend,
  clients: readonly LockClient[],
  locks: readonly ConformantLock[],
): Promise<void> {
  for (const client of clients) {
    expect(client.activity().renewing, 'locks still renewed').toBe(0);
    expect(client.activity().channels, 'channels still waited on').toEqual([]);
  }
  // An unsubscribe is sent when the last waiter leaves; the server may see it a moment later.
  expect(
    await eventually(async () => (await backend.pubsubChannels()).length === 0, 5_000),
    'channels left subscribed',
  ).toBe(true);
  const held = await Promise.all(locks.map(async (lock) => ((await lock.isLocked()) ? lock.name : undefined)));
  expect(
    held.filter((name) => name !== undefined),
    'locks still held',
  ).toEqual([]);
}
