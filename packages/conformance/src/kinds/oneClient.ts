import type { LockClient } from '@deadbolt/core';

/**
 * The one client a kind on one deployment is built on.
 *
 * @throws Error for other than one client
 */
export function oneClient(clients: readonly LockClient[]): LockClient {
  const [client] = clients;
  if (client === undefined || clients.length !== 1) throw new Error(`expected one lock client, got ${clients.length}`);
  return client;
}
