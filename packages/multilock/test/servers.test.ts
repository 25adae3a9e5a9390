// MultiLock across two independent servers, one client each, on both adapters: the same name on
// both in opposite orders (which no name order can reconcile) finishes without deadlock, and a
// release reports the member whose server died while it gives back the other.
import { BACKENDS, countOverlaps, eventually, useBackendContext } from '@deadbolt/conformance';
import { RedisUnavailableError, type LockClient } from '@deadbolt/core';
import { LockGroupError, MultiLock } from '@deadbolt/multilock';
import { describe, expect, it } from 'vitest';

const ADAPTERS = [...new Set(BACKENDS.map(({ adapter }) => adapter))];

describe.each(ADAPTERS)('MultiLock across two servers on %s', (adapter) => {
  const servers = [
    useBackendContext(adapter, 'standalone', { dedicated: true }),
    useBackendContext(adapter, 'standalone', { dedicated: true }),
  ];
  const exists = async (server: number, key: string) =>
    Number(await servers[server]!.backend().command(['EXISTS', key])) === 1;
  /** One client on each server. */
  const clientPair = async (options?: { commandTimeout: number }) =>
    Promise.all(servers.map((server) => server.client(options)));

  it('the same name on both servers in opposite orders: every task finishes, one holder at a time', async () => {
    const name = servers[0]!.uniqueName('opposite');
    const [left, right] = [await clientPair(), await clientPair()];
    const forward = new MultiLock(left.map((client) => client.lock(name)));
    const backward = new MultiLock(right.map((client) => client.lock(name)).reverse());
    const groups = [forward, backward];
    const overlaps = await countOverlaps(10, 4, (task, critical) =>
      groups[task % 2]!.withLock(critical, { waitTime: 40_000 }),
    );
    expect(overlaps).toEqual({ runs: 40, mostAtOnce: 1 });
    expect([await exists(0, name), await exists(1, name)]).toEqual([false, false]);
  });

  it('a release gives back the live member and reports the one whose server was killed', async () => {
    const name = servers[0]!.uniqueName('killed');
    const clients: LockClient[] = await clientPair({ commandTimeout: 500 });
    const held = await new MultiLock(clients.map((client) => client.lock(name))).acquire();
    await servers[1]!.backend().nodes[0]!.kill();
    try {
      const failure = await held.release().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(LockGroupError);
      const { failures } = failure as LockGroupError;
      expect(failures.map(({ member }) => member)).toEqual([held.members[1]]);
      expect(failures[0]!.error).toBeInstanceOf(RedisUnavailableError);
      expect(await exists(0, name)).toBe(false);
    } finally {
      await servers[1]!.backend().nodes[0]!.restart();
      // Back in service before the test ends: node-redis never finishes closing a client that is
      // still reconnecting.
      expect(
        await eventually(
          () =>
            clients[1]!
              .lock(name)
              .isLocked()
              .then(
                () => true,
                () => false,
              ),
          10_000,
        ),
      ).toBe(true);
    }
  });
});
