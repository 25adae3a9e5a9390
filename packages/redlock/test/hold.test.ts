// A held RedLock over 3 independent servers, on both adapters: a node restarted empty lets no
// second holder in while a quorum holds, losing a majority (deleted or killed) aborts the signal,
// leases and validity, waiting and aborting, withLock and extend.
import { BACKENDS, eventually, sleep } from '@deadbolt/conformance';
import { LockLostError } from '@deadbolt/core';
import { LockGroupError } from '@deadbolt/multilock';
import { HeldRedLock, RedLock } from '@deadbolt/redlock';
import { describe, expect, it } from 'vitest';
import { useDeployments } from './deployments.js';

const ADAPTERS = [...new Set(BACKENDS.map(({ adapter }) => adapter))];
const NODE_TIMEOUT = 1_000;
const OPTIONS = { nodeTimeout: NODE_TIMEOUT, retryDelay: 50, retryJitter: 40 };
// A watchdog lease of a few seconds, so that a lost member is noticed soon, and yet no member
// expires on a loaded machine while it is held.
const CLIENT_OPTIONS = { watchdogTimeout: 3_000, commandTimeout: 30_000 };
// For the tests that lose a majority and wait for the holder to notice.
const FAST_WATCHDOG = { ...CLIENT_OPTIONS, watchdogTimeout: 600 };

describe.each(ADAPTERS)('held RedLock on %s', (adapter) => {
  const nodes = useDeployments(adapter, 3);
  const setup = async (label: string, clientOptions = CLIENT_OPTIONS) => {
    const name = nodes.uniqueName(label);
    const clients = await nodes.clients(3, clientOptions);
    return { name, clients, redlock: nodes.redlock(clients, name, OPTIONS) };
  };
  /** Acquires and waits until every node granted (the last one may join after the quorum). */
  const holdAll = async (redlock: RedLock) => {
    const held = await redlock.acquire();
    expect(await eventually(() => held.members.length === 3)).toBe(true);
    return held;
  };
  const lost = (held: HeldRedLock) => held.members.filter((member) => member.signal.aborted).length;
  const pttls = async (name: string) =>
    Promise.all([0, 1, 2].map(async (index) => Number(await nodes.command(index, 'PTTL', name))));

  it('a node restarted empty during a hold lets no second holder in while a quorum still holds', async () => {
    const { name, redlock } = await setup('restarted');
    const held = await holdAll(redlock);
    await nodes.fault(0, 'restart');
    expect(await nodes.exists(0, name)).toBe(false);
    const second = nodes.redlock(await nodes.clients(3), name, OPTIONS);
    expect(await second.tryAcquire({ waitTime: 1_000 })).toBeNull();
    // The watchdog finds the restarted node's member gone; two of three still hold.
    expect(await eventually(() => lost(held) === 1, 5_000)).toBe(true);
    expect(held.signal.aborted).toBe(false);
    expect(await second.tryAcquire()).toBeNull();
    expect(await nodes.where(3, name)).toEqual([1, 2]);
    // One lost member of three leaves nobody kept out: the release succeeds.
    await held.release();
    const next = await second.tryAcquire();
    expect(next).not.toBeNull();
    expect(await eventually(() => next!.members.length === 3)).toBe(true);
    await next!.release();
  });

  it('members lost on a majority abort the signal, and the release rejects with the loss', async () => {
    const { name, redlock } = await setup('deleted', FAST_WATCHDOG);
    const held = await holdAll(redlock);
    await nodes.command(0, 'DEL', name);
    await nodes.command(1, 'DEL', name);
    expect(await eventually(() => held.signal.aborted)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    await expect(held.release()).rejects.toBe(held.signal.reason);
    expect(await nodes.where(3, name)).toEqual([]);
  });

  it('a majority killed while held aborts the signal, and the release waits on no dead node', async () => {
    const name = nodes.uniqueName('killed');
    // A renewal call to a dead node fails at the latest after commandTimeout; the release must
    // not wait that long, only nodeTimeout.
    const nodeTimeout = 300;
    const clients = await nodes.clients(3, { ...FAST_WATCHDOG, commandTimeout: 10 * nodeTimeout });
    const held = await holdAll(nodes.redlock(clients, name, { ...OPTIONS, nodeTimeout }));
    await nodes.fault(0, 'kill');
    await nodes.fault(1, 'kill');
    expect(await eventually(() => held.signal.aborted, 10_000)).toBe(true);
    const started = performance.now();
    const failure = await held.release().catch((error: unknown) => error);
    expect(performance.now() - started).toBeLessThan(5 * nodeTimeout);
    // Lost, but the dead nodes' members may still be held: the release names them, to release
    // again, having given back what the live node held.
    expect(failure).toBeInstanceOf(LockGroupError);
    expect((failure as LockGroupError).failures).toHaveLength(2);
    expect(await nodes.exists(2, name)).toBe(false);
  });

  it('with leaseTime the validity counts the time taken and the drift, and every member holds that lease', async () => {
    const { name, redlock } = await setup('lease');
    const held = await redlock.tryAcquire({ leaseTime: 5_000 });
    expect(held).not.toBeNull();
    expect(held!.validity).toBeGreaterThan(3_000);
    expect(held!.validity).toBeLessThanOrEqual(5_000 - 52);
    expect(await eventually(() => held!.members.length === 3)).toBe(true);
    for (const ttl of await pttls(name)) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5_000);
    }
    expect(held!.members.map((member) => member.leaseTime)).toEqual([5_000, 5_000, 5_000]);
    await held!.release();
    expect(await nodes.where(3, name)).toEqual([]);
  });

  it('a waiting RedLock gets in once the holder releases; an aborted wait leaves nothing of its own', async () => {
    const { name, redlock } = await setup('waiting');
    const second = nodes.redlock(await nodes.clients(3), name, OPTIONS);
    const held = await holdAll(redlock);
    const waiting = second.acquire({ waitTime: 10_000 });
    await sleep(300);
    await held.release();
    const next = await waiting;
    expect(next.members.length).toBeGreaterThanOrEqual(2);
    await next.release();

    const again = await holdAll(redlock);
    const controller = new AbortController();
    const aborted = second.acquire({ signal: controller.signal });
    await sleep(300);
    controller.abort(new Error('user gave up'));
    await expect(aborted).rejects.toThrow('user gave up');
    // Only the holder's field is in each node's lock hash.
    for (const index of [0, 1, 2]) expect(Number(await nodes.command(index, 'HLEN', name))).toBe(1);
    await again.release();
    expect(await nodes.where(3, name)).toEqual([]);
  });

  it('withLock runs under the quorum, member acquisitions inside re-enter, and extend sets every lease', async () => {
    const { name, clients } = await setup('withlock');
    const locks = clients.map((client) => client.lock(name));
    const redlock = new RedLock(locks, OPTIONS);
    const result = await redlock.withLock(async (signal, held) => {
      expect(held).toBeInstanceOf(HeldRedLock);
      expect(signal.aborted).toBe(false);
      expect(await eventually(() => held.members.length === 3)).toBe(true);
      const inner = await locks[2]!.tryAcquire();
      expect(inner?.owner).toBe(held.owner);
      expect(await locks[2]!.holdCount(held.owner)).toBe(2);
      await inner!.release();
      expect(held.keptByWatchdog).toBe(true);
      await held.extend(5_000, { stopWatchdog: true });
      for (const ttl of await pttls(name)) expect(ttl).toBeLessThanOrEqual(5_000);
      return 'done';
    });
    expect(result).toBe('done');
    expect(await nodes.where(3, name)).toEqual([]);
  });
});
