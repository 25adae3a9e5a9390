import { type Backend } from '@deadbolt/conformance/connect';
import type { ModelKind } from '@deadbolt/conformance/model';
import { LockClient } from '@deadbolt/core';

/** What one contention round found. */
export interface ContentionResult {
  /** Increments made under the lock. */
  readonly writes: number;
  /** Increments overwritten: writes made minus the counter's final value. */
  readonly lostUpdates: number;
}

/**
 * Concurrent writers on one lock of `kind` (its exclusive lock; a read-write lock's write lock),
 * from two clients: each round reads a counter in Redis, yields, and writes it back plus one, all
 * inside `withLock`. The model's own steps run one at a time, so this is where the soak counts
 * lost updates: any increment overwritten means two holders were inside at once.
 */
export async function contend(
  kind: ModelKind,
  backend: Backend,
  name: string,
  tasks = 4,
  rounds = 5,
): Promise<ContentionResult> {
  const connections = await Promise.all([backend.connect(), backend.connect()]);
  const clients = connections.map((connected) => new LockClient(connected.executor, { watchdogTimeout: 900 }));
  const counter = `${name}:counter`;
  try {
    const locks = clients.map((client) => kind.create(client, name).lock('write'));
    await Promise.all(
      Array.from({ length: tasks }, async (_, task) => {
        for (let round = 0; round < rounds; round++) {
          await locks[task % locks.length]!.withLock(
            async () => {
              const value = Number((await backend.command(['GET', counter], counter)) ?? 0);
              await new Promise((resolve) => setTimeout(resolve, 1));
              await backend.command(['SET', counter, value + 1, 'PX', 60_000], counter);
            },
            { waitTime: 30_000 },
          );
        }
      }),
    );
    const final = Number((await backend.command(['GET', counter], counter)) ?? 0);
    return { writes: tasks * rounds, lostUpdates: tasks * rounds - final };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(connections.map((connected) => connected.close()));
  }
}
