// Independent Redis deployments for the RedLock tests: one dedicated standalone server each, with
// clients per test, faults (kill -9, restart without data, SIGSTOP) undone after each test.
import { eventually, useBackendContext, type AdapterName } from '@deadbolt/conformance';
import type { LockClient, LockClientOptions } from '@deadbolt/core';
import { RedLock, type RedLockOptions } from '@deadbolt/redlock';
import type { RedisNode } from '@deadbolt/test-harness';
import { afterEach, expect } from 'vitest';

export function useDeployments(adapter: AdapterName, count: number) {
  const contexts = Array.from({ length: count }, () => useBackendContext(adapter, 'standalone', { dedicated: true }));
  const server = (index: number): RedisNode => contexts[index]!.backend().nodes[0]!;
  const made: { readonly client: LockClient; readonly deployment: number }[] = [];
  const paused = new Set<number>();
  const restarted = new Set<number>();

  // Runs before the contexts close this test's clients ("after" hooks run in reverse).
  afterEach(async () => {
    for (const index of paused) await server(index).resume();
    for (const index of restarted) if (!server(index).running) await server(index).restart();
    // node-redis never finishes closing a client that is still reconnecting.
    const back = made.filter(({ deployment }) => restarted.has(deployment));
    for (const { client } of back) {
      expect(
        await eventually(
          () =>
            client
              .lock('reconnected')
              .isLocked()
              .then(
                () => true,
                () => false,
              ),
          10_000,
        ),
      ).toBe(true);
    }
    paused.clear();
    restarted.clear();
    made.splice(0);
  });

  const context = {
    /** One new client on each of the first `n` deployments. */
    async clients(n: number, options?: LockClientOptions): Promise<LockClient[]> {
      return Promise.all(
        contexts.slice(0, n).map(async (backendContext, index) => {
          const client = await backendContext.client(options);
          made.push({ client, deployment: index });
          return client;
        }),
      );
    },
    /** A RedLock over `name` on each of `clients`. */
    redlock(clients: readonly LockClient[], name: string, options?: RedLockOptions): RedLock {
      return new RedLock(
        clients.map((client) => client.lock(name)),
        options,
      );
    },
    uniqueName: (label: string) => contexts[0]!.uniqueName(label),
    /** Whether `key` exists on deployment `index`. */
    async exists(index: number, key: string): Promise<boolean> {
      return Number(await contexts[index]!.backend().command(['EXISTS', key])) === 1;
    },
    /** On which of the first `n` deployments `key` exists. */
    async where(n: number, key: string): Promise<number[]> {
      const found: number[] = [];
      for (let index = 0; index < n; index++) if (await context.exists(index, key)) found.push(index);
      return found;
    },
    async command(index: number, ...args: (string | number)[]): Promise<unknown> {
      return contexts[index]!.backend().command(args);
    },
    /**
     * A fault on deployment `index`'s server: `kill` (SIGKILL), `restart` (without its data) or
     * `pause` (SIGSTOP). Each is undone after the test: a killed server is started again, empty, and
     * a paused one resumed.
     */
    async fault(index: number, fault: 'kill' | 'restart' | 'pause'): Promise<void> {
      (fault === 'pause' ? paused : restarted).add(index);
      await server(index)[fault]();
    },
    async resume(index: number): Promise<void> {
      paused.delete(index);
      await server(index).resume();
    },
  };
  return context;
}
