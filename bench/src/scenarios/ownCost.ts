import { createHash } from 'node:crypto';
import { LOCK } from '@deadbolt/conformance/kinds';
import { LockClient, type Executor } from '@deadbolt/core';
import { lockCommands } from '@deadbolt/core/kit';

const MS_PER_SECOND = 1_000;
// What the version probe hears: the server the suite runs on.
const SERVER_VERSION = '7.0.15';

/**
 * Deadbolt's own JavaScript per lock + unlock cycle, in microseconds: the wall time of cycles on
 * an executor that answers every call at once, so that neither a driver nor Redis takes part.
 * Not a behaviour test: it only tells how much of scenario 1's gap to its floor is Deadbolt's.
 */
export async function deadboltOwnCostUs(cycles: number): Promise<number> {
  const answered = Promise.resolve();
  const acquire = lockCommands.acquire.script;
  // A free lock: the acquisition replies nil, the release 1 (freed); the client's first-use
  // version probe (the one script that reads `redis.REDIS_VERSION`) a supported server's version.
  // The first call of a script goes in full, later ones by digest.
  const replyTo = (source: string) =>
    source === acquire.source ? null : source.includes('redis.REDIS_VERSION') ? SERVER_VERSION : 1;
  const bySha = new Map<string, string | number>();
  const executor: Executor = {
    isCluster: false,
    evalsha: (sha) => Promise.resolve(sha === acquire.sha ? null : (bySha.get(sha) ?? 1)),
    eval: (source) => {
      const reply = replyTo(source);
      if (reply !== null) bySha.set(createHash('sha1').update(source).digest('hex'), reply);
      return Promise.resolve(reply);
    },
    // The server clock's probe gets the time; INFO (the eviction check) gets nothing to warn of.
    command: (_key, args) =>
      Promise.resolve(args[0] === 'TIME' ? [String(Math.floor(Date.now() / MS_PER_SECOND)), '0'] : null),
    subscribe: () => answered,
    unsubscribe: () => answered,
    listen: () => undefined,
    close: () => answered,
  };
  const client = new LockClient(executor);
  try {
    const lock = LOCK.create([client], 'bench:own-cost', 'lock');
    const cycle = async () => (await lock.acquire()).release();
    for (let i = 0; i < cycles; i++) await cycle();
    const started = performance.now();
    for (let i = 0; i < cycles; i++) await cycle();
    return ((performance.now() - started) * 1000) / cycles;
  } finally {
    await client.close();
  }
}
