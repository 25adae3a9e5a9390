// RedLock over 5 independent servers, on both adapters, through node loss: a minority of nodes
// killed (the holder keeps its quorum, nobody else gets one), a majority killed (the holder is
// told it lost the lock, a waiter fails with a typed error instead of hanging), and a node the
// holder held restarted empty (the holder keeps its quorum, nobody else gets one).
import { eventually, useBackendContext } from '@deadbolt/conformance';
import { LockError, LockLostError, type LockClient } from '@deadbolt/core';
import { RedLock, type HeldRedLock } from '@deadbolt/redlock';
import { sleep } from '@deadbolt/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { useNoUnhandledRejections } from '../src/checks/unhandledRejections.js';
import { FaultLog, type FaultType } from '../src/faults/FaultLog.js';
import { recordFigures } from '../src/results/figures.js';
import { backendsOn } from '../src/suite/backends.js';

const NODES = 5;
const CLIENT_OPTIONS = { watchdogTimeout: 1_500, commandTimeout: 1_000 };

describe.each(backendsOn('standalone').map(({ adapter }) => adapter))('RedLock node loss on %s', (adapter) => {
  const deployments = Array.from({ length: NODES }, () =>
    useBackendContext(adapter, 'standalone', { dedicated: true }),
  );
  const node = (index: number) => deployments[index]!.backend().nodes[0]!;
  const down = new Set<number>();
  useNoUnhandledRejections();

  // Registered after the deployments, so it runs before they close the test's clients: a node-redis
  // client still reconnecting to a dead server would never finish closing.
  afterEach(async () => {
    for (const index of down) await node(index).restart();
    down.clear();
  });

  const redlocks = async (name: string) => {
    const side = async () => {
      const clients: LockClient[] = await Promise.all(
        deployments.map((deployment) => deployment.client(CLIENT_OPTIONS)),
      );
      return new RedLock(clients.map((client) => client.lock(name)));
    };
    return { holder: await side(), other: await side() };
  };
  const kill = async (indexes: readonly number[]) => {
    for (const index of indexes) {
      await node(index).kill();
      down.add(index);
    }
  };
  const record = (fault: FaultType, operations: number) => {
    const faults = new FaultLog();
    faults.record(fault);
    recordFigures(import.meta.url, `${adapter}/redlock`, { faults: faults.counts, operations });
  };

  /** Past a lease, the holder still holds and nobody else gets a quorum; once it releases, another does. */
  const expectQuorumKept = async (held: HeldRedLock, other: RedLock) => {
    await sleep(CLIENT_OPTIONS.watchdogTimeout + 1_000);
    expect(held.signal.aborted).toBe(false);
    expect(await other.tryAcquire({ waitTime: 1_000 })).toBeNull();
    await held.release();
    const next = await other.acquire({ waitTime: 10_000 });
    await next.release();
  };

  it('a minority of nodes killed: the holder keeps its quorum past a lease, and nobody else gets one until it releases', async () => {
    const { holder, other } = await redlocks(deployments[0]!.uniqueName('minority'));
    const held = await holder.acquire();
    await kill([0, 1]);
    await expectQuorumKept(held, other);
    record('redlock minority of nodes killed', 2);
  });

  it('a majority of nodes killed: the holder is told it lost the lock, and a waiter fails typed instead of hanging', async () => {
    const { holder, other } = await redlocks(deployments[0]!.uniqueName('majority'));
    const held = await holder.acquire();
    await kill([0, 1, 2]);
    expect(await eventually(() => held.signal.aborted, 10_000)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    await expect(other.acquire({ waitTime: 1_500 })).rejects.toBeInstanceOf(LockError);
    // Releasing what is left of a lost group may succeed or fail, but only with a typed error.
    const released: unknown = await held.release().then(
      () => undefined,
      (error: unknown) => error,
    );
    if (released !== undefined) expect(released).toBeInstanceOf(LockError);
    // Back, empty: the majority is free again.
    for (const index of [0, 1, 2]) await node(index).restart();
    down.clear();
    const next = await other.acquire({ waitTime: 10_000 });
    await next.release();
    record('redlock majority of nodes killed', 1);
  });

  it('a node the holder held restarted empty: the holder keeps its quorum, and nobody else gets one until it releases', async () => {
    const { holder, other } = await redlocks(deployments[0]!.uniqueName('restarted'));
    const held = await holder.acquire();
    await node(0).restart();
    await expectQuorumKept(held, other);
    record('redlock node restarted empty', 2);
  });
});
