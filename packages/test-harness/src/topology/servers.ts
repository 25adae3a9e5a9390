import { type RedisNode, requireExecutable, startAll, startProcessNode, stopAll } from '@deadbolt/testing/servers';

/** N independent standalone servers, from {@link startServers}. */
export interface ServersHandle {
  /** The servers, in start order. */
  readonly nodes: readonly RedisNode[];
  /** Their urls, in the same order. */
  readonly urls: readonly string[];
  /** Stops every server. */
  stop(): Promise<void>;
}

/** Starts `count` independent servers (no replication, no cluster), as RedLock needs. */
export async function startServers(count: number): Promise<ServersHandle> {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`startServers: count must be a positive integer, got ${count}`);
  requireExecutable('redis-server', `startServers(${count})`);
  const nodes = await startAll(Array.from({ length: count }, () => () => startProcessNode()));
  return { nodes, urls: nodes.map((n) => n.url), stop: () => stopAll(nodes) };
}
