import type { RedisNode } from '../node/redis-node.js';

/**
 * Runs node starts in parallel and returns them all, or, if any fails, stops the ones that
 * did start and rethrows: a failed topology start must not leave half a topology running.
 */
export async function startAll(starts: readonly (() => Promise<RedisNode>)[]): Promise<RedisNode[]> {
  const results = await Promise.allSettled(starts.map((start) => start()));
  const nodes = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure !== undefined) {
    await stopAll(nodes);
    throw failure.reason;
  }
  return nodes;
}

/** Stops every node, all at once; a node that is already dead or stopped is fine. */
export async function stopAll(nodes: readonly RedisNode[]): Promise<void> {
  await Promise.all(nodes.map((node) => node.stop()));
}

/** Runs `body`, and if it throws, stops `nodes` before rethrowing. */
export async function stopOnFailure<T>(nodes: readonly RedisNode[], body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    await stopAll(nodes);
    throw error;
  }
}
