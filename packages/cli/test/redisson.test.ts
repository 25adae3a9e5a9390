// Locks a Java service holds through Redisson (the Redisson-layout peer of @deadbolt/conformance),
// read and force-unlocked by the command: Java's client id and thread id come out as client id
// and owner id, and the force-unlock wakes Java's waiters as a Java release would.
import { BACKENDS, eventually, useBackendContext, useRedissonPeers } from '@deadbolt/conformance';
import { describe, expect, it } from 'vitest';
import type { LockInfo } from '../src/index.js';
import { jsonOf, runInProcess, urlOf } from './helpers.js';

// The peer does not depend on the adapter: one run per topology.
const TOPOLOGIES = [...new Set(BACKENDS.map((backend) => backend.topology))];

describe.each(TOPOLOGIES)('deadbolt on locks Redisson holds on %s', (topology) => {
  const ctx = useBackendContext('ioredis', topology);
  const peers = useRedissonPeers(ctx);
  const cli = (...argv: string[]) => runInProcess([...argv, '--url', urlOf(ctx.backend())]);
  // Java threads still blocked when a test ends are interrupted by the peer's shutdown.
  const waiting = <T>(promise: Promise<T>) => promise.catch(() => null);

  it('ls and show read every kind a Java service holds, with its client id and thread id apart', async () => {
    const java = await peers.start();
    const prefix = ctx.uniqueName('java');
    const [t1, t2] = [java.newThreadId(), java.newThreadId()];
    await java.getLock(`${prefix}:plain`).lock(t1);
    await java.getLock(`${prefix}:plain`).lock(t1);
    const fair = java.getFairLock(`${prefix}:fair`);
    await fair.lock(t1);
    void waiting(fair.lock(t2));
    expect(await eventually(async () => (await fair.queue()).length === 1)).toBe(true);
    await java.getReadWriteLock(`${prefix}:rw`).readLock().lock(t1);
    expect(await java.getFencedLock(`${prefix}:fenced`).lockAndGetToken(t1)).toBe(1);

    const owner = (thread: number, role: string, holds: number) => ({
      field: `${java.id}:${thread}`,
      clientId: java.id,
      ownerId: String(thread),
      role,
      holds,
    });
    const locks = jsonOf<LockInfo[]>(await cli('ls', `${prefix}:*`, '--json'));
    const ttl = expect.any(Number) as unknown as number;
    expect(locks).toEqual([
      {
        name: `${prefix}:fair`,
        kind: 'fair',
        held: true,
        ttl,
        holders: [owner(t1, 'owner', 1)],
        hash: { [`${java.id}:${t1}`]: '1' },
        waiters: [{ field: `${java.id}:${t2}`, clientId: java.id, ownerId: String(t2), position: 1, deadline: ttl }],
      },
      {
        name: `${prefix}:fenced`,
        kind: 'fenced',
        held: true,
        ttl,
        holders: [owner(t1, 'owner', 1)],
        hash: { [`${java.id}:${t1}`]: '1' },
        waiters: [],
        fencingToken: '1',
      },
      {
        name: `${prefix}:plain`,
        kind: 'lock',
        held: true,
        ttl,
        holders: [owner(t1, 'owner', 2)],
        hash: { [`${java.id}:${t1}`]: '2' },
        waiters: [],
      },
      {
        name: `${prefix}:rw`,
        kind: 'read-write',
        held: true,
        ttl,
        mode: 'read',
        waiters: [],
        holders: [{ ...owner(t1, 'reader', 1), holdTtls: [ttl] }],
        hash: { mode: 'read', [`${java.id}:${t1}`]: '1' },
      },
    ]);
    expect((await cli('show', `${prefix}:plain`)).stdout).toContain(`owner  ${java.id}  ${t1}`);
  });

  it("unlock --force --yes wakes Java's waiters as a Java release would", async () => {
    const java = await peers.start();
    const prefix = ctx.uniqueName('java-unlock');
    const [t1, t2] = [java.newThreadId(), java.newThreadId()];
    const plain = java.getLock(`${prefix}:plain`);
    await plain.lock(t1);
    const plainWaiter = plain.tryLock(t2, { waitTime: 10_000 });
    await eventually(() => java.subscribedChannels.includes(plain.channelName));
    const fair = java.getFairLock(`${prefix}:fair`);
    await fair.lock(t1);
    const fairWaiter = fair.tryLock(t2, { waitTime: 10_000 });
    await eventually(async () => (await fair.queue()).length === 1);

    for (const [name, waiter] of [
      [plain.name, plainWaiter],
      [fair.name, fairWaiter],
    ] as const) {
      const started = performance.now();
      expect((await cli('unlock', name, '--force', '--yes')).code).toBe(0);
      // Java's waiter would otherwise sleep until the 30 s lease ended.
      expect(await waiter).toBe(true);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
    expect(await plain.holdCount(t2)).toBe(1);
  });
});
