// Requests that arrive twice (DESIGN.md): a driver re-sends a request whose reply it lost when the
// connection dropped, after any delay, so every script that changes lock state must count once
// per request however late the second run comes. These tests make it happen for real: the driver
// talks to Redis through the harness's fault proxies, which let a request through to Redis,
// swallow its reply and drop the connection (and, for the release, keep the network down past
// the release's record), then read what Redis holds directly, not through the proxy.
//
// What each driver does with a request whose reply was lost:
// - ioredis re-sends it. Commands written but not answered when the connection closes are kept
//   (`prevCommandQueue`) and written again, before anything queued meanwhile, once the connection
//   is ready (`autoResendUnfulfilledCommands`, default true), however long the reconnect took,
//   unless `maxRetriesPerRequest` (20 reconnection attempts) runs out first. The proxied cluster
//   client reconnects a lost node and does the same (see ioredisProxyOptions in backends/ioredisClient.ts).
// - node-redis does not. On a socket error it rejects every command waiting for a reply with that
//   error (`flushWaitingForReply` in @redis/client 6's commands queue); only commands not yet
//   written wait for the reconnect. So the request ran once and the caller got an error; calling
//   `release()` again, which HeldLock documents as safe, is then the second run.
// Either way the tests assert the safe outcome: one request, one change.
import { LockClient, type LockClientOptions } from '@deadbolt/core';
import { lockChannelName, ownerField } from '@deadbolt/core/kit';
import type { ProxyGroup } from '@deadbolt/test-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, backendProxies, eventually, startBackend, type AdapterName, type Backend } from '../src/index.js';

/** Whether the driver re-sends a request whose reply it lost (see above). */
const DRIVER_RESENDS: Record<AdapterName, boolean> = { ioredis: true, 'node-redis': false, 'valkey-glide': false };

/** A lease no other request of these tests carries, so that the acquisition can be told apart. */
const LEASE_MS = 27_182;

/**
 * Longer than the record of a release sent with a 1 s command timeout, which remembers the
 * release's outcome for 2 × commandTimeout: the re-send comes after the record is gone.
 */
const PAST_THE_LATCH_MS = 3_500;

type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.name : String(error) };
  }
}

let counter = 0;
const uniqueName = (label: string) => `resend:${label}:${process.pid}:${++counter}`;

describe.each(BACKENDS)(
  'requests that arrive twice, on $adapter/$topology through fault proxies',
  ({ adapter, topology }) => {
    let backend: Backend;
    let proxies: ProxyGroup | undefined;
    const closers: (() => Promise<void>)[] = [];
    const resends = DRIVER_RESENDS[adapter];

    beforeAll(async () => {
      backend = await startBackend(adapter, topology, { dedicated: true });
      ({ proxies } = await backendProxies(backend));
    });
    afterEach(async () => {
      proxies?.clearRules();
      proxies?.heal();
      await Promise.all(closers.splice(0).map((close) => close()));
    });
    afterAll(async () => {
      await backend?.close();
    });

    /** A lock client whose driver connects through the proxies (or directly), closed after the test. */
    async function lockClient(options: LockClientOptions & { proxied: boolean }): Promise<LockClient> {
      const { proxied, ...clientOptions } = options;
      const connected = await backend.connect({ proxied });
      const client = new LockClient(connected.executor, clientOptions);
      closers.push(async () => {
        await client.close();
        await connected.close();
      });
      return client;
    }

    function group(): ProxyGroup {
      if (proxies === undefined) throw new Error('the fault proxies did not start');
      return proxies;
    }

    /** The lock hash's hold counts, read from Redis directly. */
    async function holdsInRedis(name: string): Promise<Record<string, number>> {
      const reply = await backend.command(['HGETALL', name], name);
      const pairs = Array.isArray(reply) ? reply.map(String) : [];
      const holds: Record<string, number> = {};
      for (let i = 0; i + 1 < pairs.length; i += 2) holds[pairs[i] ?? ''] = Number(pairs[i + 1]);
      return holds;
    }

    const totalHolds = async (name: string) =>
      Object.values(await holdsInRedis(name)).reduce((sum, count) => sum + count, 0);

    /**
     * Waits until `query` (a read through the proxied client) is answered. On one connection replies
     * come in order, and a driver re-sends what it lost before anything sent after it, so once this
     * is answered, any re-send of a request of the same lock (same slot, same connection) has run.
     */
    async function untilAnswered(query: () => Promise<unknown>): Promise<void> {
      const answered = await eventually(
        () =>
          query().then(
            () => true,
            () => false,
          ),
        15_000,
        50,
      );
      expect(answered, 'the proxied client answers again after the partition').toBe(true);
    }

    /**
     * Takes and releases the lock once, so that its scripts are cached on its node: the request a
     * test cuts is then the one it means, not an EVALSHA that Redis answered NOSCRIPT without running.
     */
    async function warmUp(lock: ReturnType<LockClient['lock']>): Promise<void> {
      await (await lock.acquire({ owner: 'warm-up' })).release();
    }

    /**
     * One owner holds a lock twice; the inner hold's release is cut after Redis ran it, and the
     * network stays down past the release's record. Returns what the test needs next.
     */
    async function cutInnerReleasePastTheLatch(label: string) {
      const client = await lockClient({ proxied: true, commandTimeout: 1_000 });
      const name = uniqueName(label);
      const lock = client.lock(name);
      const field = ownerField(client.id, 'job');
      await warmUp(lock);
      const outer = await lock.acquire({ owner: 'job' });
      const inner = await lock.acquire({ owner: 'job' });
      expect(await holdsInRedis(name)).toEqual({ [field]: 2 });
      // Only a release carries the lock's channel as a key (an acquisition carries its request
      // record, deadbolt_request:{name}:<hold id>, and no channel).
      const cut = group().cutAfterRequest({ marker: lockChannelName(name), partitionMs: PAST_THE_LATCH_MS });
      const firstRelease = await settle(inner.release());
      await cut.until((rule) => rule.cut === 1, 'the inner release was cut');
      await group().whenHealed();
      await untilAnswered(() => lock.holdCount('job'));
      return { client, name, lock, field, outer, inner, cut, firstRelease };
    }

    it('a release re-sent after its record expired counts once (reported: "runs twice")', async () => {
      const { name, field, outer, cut, firstRelease } = await cutInnerReleasePastTheLatch('latch');
      const other = await lockClient({ proxied: false });
      const observed = {
        releaseRequestsSeen: cut.seen,
        holdsInRedis: await holdsInRedis(name),
        anotherClientGetsIt: (await other.lock(name).tryAcquire()) !== null,
        outerAborted: outer.signal.aborted,
      };
      expect({ firstRelease, ...observed }).toEqual({
        // The caller was told the release failed (no reply within the 1 s command timeout, or the
        // connection's error): it did run once, and the driver may run it again.
        firstRelease: { ok: false, error: 'RedisUnavailableError' },
        releaseRequestsSeen: resends ? 2 : 1,
        holdsInRedis: { [field]: 1 },
        anotherClientGetsIt: false,
        outerAborted: false,
      });
      await outer.release();
      expect(await holdsInRedis(name)).toEqual({});
    });

    it('a release retried by the caller after its record expired counts once', async () => {
      const { name, field, outer, inner, cut } = await cutInnerReleasePastTheLatch('retry');
      // HeldLock.release: "calling again is safe". Long after the record: the same request once more.
      const retried = await settle(inner.release());
      const other = await lockClient({ proxied: false });
      const observed = {
        // Released (the first run's outcome), or the LockLostError of the first try's unknown
        // outcome (nothing left to release): either way the caller's hold is gone; what matters is
        // that nothing else is.
        retried: retried.ok ? 'released' : retried.error,
        releaseRequestsSeen: cut.seen,
        holdsInRedis: await holdsInRedis(name),
        anotherClientGetsIt: (await other.lock(name).tryAcquire()) !== null,
        outerAborted: outer.signal.aborted,
      };
      expect(observed).toEqual({
        retried: expect.stringMatching(/^(released|LockLostError)$/),
        releaseRequestsSeen: resends ? 3 : 2,
        holdsInRedis: { [field]: 1 },
        anotherClientGetsIt: false,
        outerAborted: false,
      });
      await outer.release();
      expect(await holdsInRedis(name)).toEqual({});
    });

    it('an acquisition re-sent by the driver counts once, and its one release leaves nothing', async () => {
      const client = await lockClient({ proxied: true, commandTimeout: 5_000 });
      const name = uniqueName('acquire');
      const lock = client.lock(name);
      await warmUp(lock);
      // Only the acquisition carries this lease (the query below carries the owner field too).
      const cut = group().cutAfterRequest({
        marker: `$${String(LEASE_MS).length}\r\n${LEASE_MS}\r\n`,
        commands: ['EVALSHA', 'EVAL'],
      });
      const acquired = await settle(lock.acquire({ owner: 'job', leaseTime: LEASE_MS }));
      await untilAnswered(() => lock.holdCount('job'));
      cut.cancel();
      const reported = acquired.ok ? 1 : 0;
      // A library that gives back an acquisition it could not confirm may do so in the background.
      await eventually(async () => (await totalHolds(name)) === reported, 3_000);
      const afterAcquire = { holdsInRedis: await totalHolds(name), cut: cut.cut, acquireRequestsSeen: cut.seen };
      if (acquired.ok) await acquired.value.release();
      const afterRelease = { isLocked: await lock.isLocked(), holdsInRedis: await holdsInRedis(name) };
      expect({ reported, afterAcquire, afterRelease }).toEqual({
        reported: resends ? 1 : reported,
        afterAcquire: {
          holdsInRedis: reported,
          cut: 1,
          // ioredis re-sent it (and the acquisition succeeded); node-redis failed it, and a library
          // retry of its own may have sent it again.
          acquireRequestsSeen: resends ? 2 : expect.any(Number),
        },
        // Not "a count of 1 until the lease ends".
        afterRelease: { isLocked: false, holdsInRedis: {} },
      });
    });
  },
);
