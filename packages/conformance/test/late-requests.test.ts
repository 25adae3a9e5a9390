// Requests that arrive late (issue 30, DESIGN.md "Requests that arrive twice, or late, or whose
// outcome is unknown"): no copy of a request, however late, may free, take, count or lengthen
// anything, and an outcome the client does not learn is taken as the worse one. Each finding of
// the issue is a test here, on every adapter, standalone and cluster, for real: the driver talks
// to Redis through the harness's fault proxies, and what Redis holds is read directly, not
// through them.
//
// How a late copy is made (see packages/conformance/test/resend.test.ts for what each driver
// does with a request whose reply it lost):
// - ioredis re-sends a request whose reply was lost, after any delay: the proxy lets the request
//   run, swallows its reply, drops the connection and refuses connections for longer than any
//   request marker lives (2 × commandTimeout), so the driver's own copy arrives late.
// - node-redis and Valkey GLIDE reject such a request with the connection's error and never send
//   it again: the proxy lets it run and keeps a copy (`holdRequest({ duplicate: true })`), which
//   the test delivers late, on the request's old connection to Redis.
// - A request held back before it ran (`holdRequest`) and delivered late, after the client timed
//   out and moved on, is the third case, on every driver (ioredis also re-sends it at once on a
//   new connection, so there it arrives twice).
//
// Every client a test cuts or holds requests of talks through the proxies with a 1 s command
// timeout; every other client (the holders it competes with, the rivals) talks to Redis directly.
// Requests are matched by a marker only the intended request carries: a name used by that one
// client only, with a distinctive argument where the same client sends other requests on it, after
// a warm-up that cached the script on the key's node (a first call is sent in full, EVAL).
import { CountDownLatch } from '@deadbolt/countdown-latch';
import { LockClient, type AcquireOptions, type HeldLock } from '@deadbolt/core';
import { call, lockCommands, lockRuntime, ownerField } from '@deadbolt/core/kit';
import { FairLock } from '@deadbolt/fair-lock';
import { FencedLock } from '@deadbolt/fenced-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { PermitExpirableSemaphore, Semaphore } from '@deadbolt/semaphore';
import { SpinLock } from '@deadbolt/spin-lock';
import type { ProxyGroup, RequestMatch } from '@deadbolt/test-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKENDS,
  backendProxies,
  eventually,
  sleep,
  startBackend,
  type AdapterName,
  type Backend,
} from '../src/index.js';

/** Whether the driver re-sends a request whose reply it lost (see above). */
const DRIVER_RESENDS: Record<AdapterName, boolean> = { ioredis: true, 'node-redis': false, 'valkey-glide': false };

/** The command timeout of the proxied clients: a request marker then lives 2 × 1 s. */
const COMMAND_TIMEOUT_MS = 1_000;

/** Longer than any request marker lives (2 × {@link COMMAND_TIMEOUT_MS}): how late a late copy comes. */
const PAST_THE_MARKER_MS = 2_500;

/**
 * How long a held request's client stays stalled before its connection drops: longer than the
 * command timeout, so that the call times out (and gives back what it may have taken) first.
 */
const STALL_PAST_THE_TIMEOUT_MS = COMMAND_TIMEOUT_MS + 500;

/** Lease of the stuck holder, the new holder and the rivals: far longer than any test. */
const LONG_LEASE_MS = 30_000;

/** A lease no other request of these tests carries, so that one acquisition can be told apart. */
const DISTINCT_LEASE_MS = 27_182;

/** The hold whose lease `extend` shortens, and what to. */
const EXTENDED_HOLD_MS = 20_000;
const SHORTENED_LEASE_MS = 800;

/**
 * How much later than the shortened lease's end (measured from just before the call) the
 * holder's signal may abort: a timer fires at or after its time, and the library notes its send a
 * moment after the test does. The check that matters is the rival's: it finds the signal aborted.
 */
const TIMER_SLACK_MS = 20;

/** How often a rival tries to take what a holder may have lost. */
const RIVAL_POLL_MS = 25;

/** How long ioredis may take to reconnect and re-send after a partition. */
const RESEND_WAIT_MS = 15_000;

/** How long to wait for something that should come within a lease or two. */
const SETTLE_MS = 10_000;

/** Script calls: every state-changing request of the library is one. */
const SCRIPT_COMMANDS = ['EVALSHA', 'EVAL'] as const;

/** A RESP bulk string as it appears in a request: a marker for one exact argument. */
const bulk = (value: string | number) => `$${String(value).length}\r\n${value}\r\n`;

type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.name : String(error) };
  }
}

let counter = 0;
// No braces: a latch name may not have them. Every key of one name shares its slot.
const uniqueName = (label: string) => `late:${label}:${process.pid}:${++counter}`;

/** What the force-unlock tests need of a lock kind. */
interface ForceUnlockable {
  acquire(options?: AcquireOptions): Promise<HeldLock>;
  tryAcquire(options?: AcquireOptions): Promise<HeldLock | null>;
  forceUnlock(): Promise<boolean>;
  isLocked(): Promise<boolean>;
}

/** The lock kinds with a force-unlock, each made on a client under a name. */
const FORCE_UNLOCK_KINDS: readonly {
  readonly kind: string;
  readonly make: (client: LockClient, name: string) => ForceUnlockable;
}[] = [
  { kind: 'Lock', make: (client, name) => client.lock(name) },
  { kind: 'SpinLock', make: (client, name) => new SpinLock(client, name) },
  { kind: 'FairLock', make: (client, name) => new FairLock(client, name) },
  { kind: 'ReadWriteLock write lock', make: (client, name) => new ReadWriteLock(client, name).writeLock() },
  { kind: 'FencedLock', make: (client, name) => new FencedLock(client, name) },
];

describe.each(BACKENDS)(
  'requests that arrive late, on $adapter/$topology through fault proxies',
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

    /** A client whose driver connects through the proxies (with a 1 s command timeout) or directly, closed after the test. */
    async function lockClient(proxied: boolean): Promise<LockClient> {
      const connected = await backend.connect({ proxied });
      const client = new LockClient(connected.executor, proxied ? { commandTimeout: COMMAND_TIMEOUT_MS } : {});
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

    /** A raw command on the node that owns `key`, not through the proxies. */
    const redis = (args: readonly (string | number)[], key: string) => backend.command(args, key);

    /**
     * Makes the next script call matching `match` run now, with its outcome lost to the caller, and
     * arrive once more `lateByMs` after that (ioredis: its own re-send after a partition that long;
     * the other drivers: a copy the proxy kept, delivered on the old connection). The test sends no
     * other request matching `match` until the copy landed.
     */
    function lateCopy(match: RequestMatch, lateByMs: number) {
      const matching = { ...match, commands: SCRIPT_COMMANDS };
      if (resends) {
        const cut = group().cutAfterRequest({ ...matching, partitionMs: Math.max(lateByMs, 1) });
        return {
          ran: () => cut.until((rule) => rule.cut === 1, 'the request ran and was cut'),
          // The re-send is the first request on the new connection; its reply is counted as answered.
          land: () =>
            cut.until(
              (rule) => rule.seen === 2 && rule.answered === 1,
              'ioredis re-sent the request and Redis answered it',
              RESEND_WAIT_MS,
            ),
        };
      }
      const hold = group().holdRequest({ ...matching, duplicate: true });
      let ranAt = 0;
      return {
        ran: async () => {
          await hold.until((rule) => rule.held === 1, 'the request ran and its copy is held');
          ranAt = performance.now();
        },
        land: async () => {
          await sleep(Math.max(0, ranAt + lateByMs - performance.now()));
          await hold.deliver();
        },
      };
    }

    /** Whether the lock hash has a hold of `client`'s (a field `<clientId>:...`), read from Redis directly. */
    async function heldBy(name: string, client: LockClient): Promise<boolean> {
      const reply = await redis(['HKEYS', name], name);
      return Array.isArray(reply) && reply.some((field) => String(field).startsWith(`${client.id}:`));
    }

    describe.each(FORCE_UNLOCK_KINDS)('$kind', ({ kind, make }) => {
      /**
       * A stuck lock held by A; an operator's forceUnlock through the proxies, warmed up. Returns the
       * operator's lock, W (who will take the freed lock) and X (a rival), all on the same name.
       */
      async function stuckLock(label: string) {
        const name = uniqueName(`force-${label}-${kind.replace(/\W+/g, '-')}`);
        const [operator, a, w, x] = await Promise.all([
          lockClient(true),
          lockClient(false),
          lockClient(false),
          lockClient(false),
        ]);
        const opLock = make(operator, name);
        // Caches the script on the lock's node: the request cut or held below is the real one.
        expect(await opLock.forceUnlock()).toBe(false);
        await make(a, name).acquire({ leaseTime: LONG_LEASE_MS });
        expect(await heldBy(name, a)).toBe(true);
        return { name, opLock, w, wLock: make(w, name), xLock: make(x, name) };
      }

      /** W took the freed lock before the copy came; after it, W still holds it. */
      async function expectWStillHolds(
        name: string,
        w: LockClient,
        wHeld: HeldLock,
        xLock: ForceUnlockable,
      ): Promise<void> {
        const rival = await xLock.tryAcquire({ leaseTime: LONG_LEASE_MS });
        const observed = {
          wFieldInRedis: await heldBy(name, w),
          anotherClientGetsIt: rival !== null,
          wSignalAborted: wHeld.signal.aborted,
        };
        await rival?.release();
        expect(observed).toEqual({ wFieldInRedis: true, anotherClientGetsIt: false, wSignalAborted: false });
        await wHeld.release();
      }

      it('a forceUnlock whose reply was lost and that arrives again late frees nothing taken after it', async () => {
        const { name, opLock, w, wLock, xLock } = await stuckLock('resent');
        // ioredis re-sends after a partition past any marker; the others get a copy at once after W took it.
        // The force-release carries its record, deadbolt_request:{name}:<id>; the read before it only the name.
        const copy = lateCopy({ marker: [name, 'deadbolt_request'] }, resends ? PAST_THE_MARKER_MS : 0);
        const first = settle(opLock.forceUnlock());
        await copy.ran();
        const wHeld = await wLock.acquire({ leaseTime: LONG_LEASE_MS, waitTime: SETTLE_MS });
        expect(await heldBy(name, w), 'W took the lock the first run freed').toBe(true);
        await copy.land();
        // The operator was not told the outcome (no reply within the command timeout), or was told it
        // by the same request sent again at once after the connection's error: never "nothing deleted".
        expect([
          { ok: false, error: 'RedisUnavailableError' },
          { ok: true, value: true },
        ]).toContainEqual(await first);
        await expectWStillHolds(name, w, wHeld, xLock);
      });

      it('a forceUnlock held back and delivered late, after the lock was freed and taken again, frees nothing', async () => {
        const { name, opLock, w, wLock, xLock } = await stuckLock('held');
        const hold = group().holdRequest({ marker: [name, 'deadbolt_request'], commands: SCRIPT_COMMANDS });
        const first = await settle(opLock.forceUnlock());
        await hold.until((rule) => rule.held === 1, 'the forceUnlock is held');
        const heldAt = performance.now();
        // ioredis sent it again on a new connection, and it ran; the others failed it, and the
        // operator tries again: a new request, which frees the stuck lock.
        if (!first.ok)
          expect(
            await eventually(
              () =>
                opLock.forceUnlock().then(
                  () => true,
                  () => false,
                ),
              SETTLE_MS,
              100,
            ),
          ).toBe(true);
        expect(await opLock.isLocked()).toBe(false);
        const wHeld = await wLock.acquire({ leaseTime: LONG_LEASE_MS, waitTime: SETTLE_MS });
        await sleep(Math.max(0, heldAt + PAST_THE_MARKER_MS - performance.now()));
        await hold.deliver();
        await expectWStillHolds(name, w, wHeld, xLock);
      });
    });

    describe('an outcome the client does not learn is the worse one', () => {
      /**
       * Shortens a long hold's lease with `shorten()`, whose request Redis runs but whose reply is
       * lost (and ioredis's re-send comes after a partition): the call must reject, and the holder's
       * signal must abort by the shortened lease's end, before a rival polling every 25 ms gets in.
       */
      async function shortenWithLostReply(
        name: string,
        signal: AbortSignal,
        shorten: () => Promise<unknown>,
        rivalTakes: () => Promise<(() => Promise<unknown>) | null>,
      ) {
        let abortedAt: number | undefined;
        signal.addEventListener('abort', () => (abortedAt = performance.now()));
        group().cutAfterRequest({
          marker: [name, bulk(SHORTENED_LEASE_MS)],
          commands: SCRIPT_COMMANDS,
          partitionMs: PAST_THE_MARKER_MS,
        });
        const sentAt = performance.now();
        const shortened = settle(shorten());
        let rival: { at: number; abortedThen: boolean; release: () => Promise<unknown> } | undefined;
        while (rival === undefined && performance.now() - sentAt < SETTLE_MS) {
          const release = await rivalTakes();
          if (release !== null) rival = { at: performance.now(), abortedThen: signal.aborted, release };
          else await sleep(RIVAL_POLL_MS);
        }
        await rival?.release();
        expect({
          shortened: await shortened,
          rivalGotIn: rival !== undefined,
          abortedWhenRivalGotIn: rival?.abortedThen,
          abortedByLeaseEnd: abortedAt !== undefined && abortedAt - sentAt <= SHORTENED_LEASE_MS + TIMER_SLACK_MS,
        }).toEqual({
          shortened: { ok: false, error: 'RedisUnavailableError' },
          rivalGotIn: true,
          abortedWhenRivalGotIn: true,
          abortedByLeaseEnd: true,
        });
      }

      it('a shortening extend whose reply is lost aborts the holder before a rival can take the lock', async () => {
        const name = uniqueName('extend');
        const [holder, x] = await Promise.all([lockClient(true), lockClient(false)]);
        const held = await holder.lock(name).acquire({ leaseTime: EXTENDED_HOLD_MS });
        // Caches the extend script on the lock's node.
        await held.extend(EXTENDED_HOLD_MS);
        const rivalLock = x.lock(name);
        await shortenWithLostReply(
          name,
          held.signal,
          () => held.extend(SHORTENED_LEASE_MS),
          async () => {
            const taken = await rivalLock.tryAcquire({ leaseTime: LONG_LEASE_MS });
            return taken && (() => taken.release());
          },
        );
      });

      it("a shortening updateLeaseTime whose reply is lost aborts the permits' holder before a rival can take them", async () => {
        const name = uniqueName('lease-update');
        const [holder, x] = await Promise.all([lockClient(true), lockClient(false)]);
        const semaphore = new PermitExpirableSemaphore(holder, name);
        expect(await semaphore.trySetPermits(1)).toBe(true);
        const held = await semaphore.acquire(1, { leaseTime: EXTENDED_HOLD_MS });
        await held.updateLeaseTime(EXTENDED_HOLD_MS);
        const rivalSemaphore = new PermitExpirableSemaphore(x, name);
        await shortenWithLostReply(
          name,
          held.signal,
          () => held.updateLeaseTime(SHORTENED_LEASE_MS),
          async () => {
            const taken = await rivalSemaphore.tryAcquire(1, { leaseTime: LONG_LEASE_MS });
            return taken && (() => taken.release());
          },
        );
      });
    });

    describe('a copy that arrives after the markers are gone counts nothing more', () => {
      // The caller is told the outcome is unknown (no reply in time, or the connection's error), or
      // learns it from the same request sent again at once after the connection's error (node-redis
      // and GLIDE reject what was in flight; the retry finds the first run's record).
      const UNKNOWN = { ok: false, error: 'RedisUnavailableError' };

      it('CountDownLatch.countDown() counts once', async () => {
        const name = uniqueName('latch');
        const latch = new CountDownLatch(await lockClient(true), name);
        expect(await latch.trySetCount(3)).toBe(true);
        // Caches the count-down script on the latch's node.
        await latch.countDown();
        expect(await redis(['GET', name], name)).toBe('2');
        const copy = lateCopy({ marker: name }, PAST_THE_MARKER_MS);
        const first = settle(latch.countDown());
        await copy.ran();
        expect([UNKNOWN, { ok: true, value: undefined }]).toContainEqual(await first);
        await copy.land();
        // One party counted down once: not 0, which would let the waiters through with one missing.
        expect(await redis(['GET', name], name)).toBe('1');
      });

      it.each([
        { call: 'release(1)', change: (semaphore: Semaphore) => semaphore.release(1) },
        { call: 'addPermits(1)', change: (semaphore: Semaphore) => semaphore.addPermits(1) },
      ])('Semaphore.$call adds once', async ({ change }) => {
        const name = uniqueName('semaphore-add');
        const semaphore = new Semaphore(await lockClient(true), name);
        expect(await semaphore.trySetPermits(2)).toBe(true);
        // Caches the add-permits script on the semaphore's node.
        await semaphore.addPermits(0);
        const copy = lateCopy({ marker: name }, PAST_THE_MARKER_MS);
        const first = settle(change(semaphore));
        await copy.ran();
        expect([UNKNOWN, { ok: true, value: undefined }]).toContainEqual(await first);
        await copy.land();
        expect(await redis(['GET', name], name)).toBe('3');
      });

      it('Semaphore.trySetPermits(n) re-sent replies that it set the permits, and a late copy changes nothing', async () => {
        const name = uniqueName('semaphore-set');
        const semaphore = new Semaphore(await lockClient(true), name);
        const rival = new Semaphore(await lockClient(false), name);
        if (resends) {
          // Re-sent at once after the cut: the call learns the outcome of its first run.
          const cut = group().cutAfterRequest({ marker: name, commands: SCRIPT_COMMANDS });
          const set = await settle(semaphore.trySetPermits(3));
          expect({ set, cut: cut.cut, seen: cut.seen, permits: await redis(['GET', name], name) }).toEqual({
            set: { ok: true, value: true },
            cut: 1,
            seen: 2,
            permits: '3',
          });
          return;
        }
        const copy = lateCopy({ marker: name }, PAST_THE_MARKER_MS);
        const set = settle(semaphore.trySetPermits(3));
        await copy.ran();
        expect([UNKNOWN, { ok: true, value: true }]).toContainEqual(await set);
        expect(await rival.tryAcquire(1)).not.toBeNull();
        await copy.land();
        expect(await redis(['GET', name], name)).toBe('2');
      });
    });

    describe('a copy of an acquisition delivered after its release takes nothing', () => {
      /**
       * Holds the next acquisition matching `match` back; the client times out, gives back what it
       * may have taken (ioredis re-sent it when its connection dropped), and moves on; once all that
       * settled (`settled`), and then past any marker or tombstone the give-back left, the held
       * request is delivered late on its old connection.
       */
      async function acquireLateAfterGiveBack(
        match: RequestMatch,
        acquire: () => Promise<unknown>,
        settled: () => Promise<boolean>,
      ): Promise<void> {
        const hold = group().holdRequest({
          ...match,
          commands: SCRIPT_COMMANDS,
          dropClientAfterMs: STALL_PAST_THE_TIMEOUT_MS,
        });
        // Rejects once the give-back it makes of an acquisition with an unknown outcome has run.
        const acquired = await settle(acquire());
        await hold.until((rule) => rule.held === 1, 'the acquisition is held');
        expect(acquired).toEqual({ ok: false, error: 'RedisUnavailableError' });
        expect(
          await eventually(settled, SETTLE_MS),
          'what the timed-out acquisition may have taken is given back',
        ).toBe(true);
        await sleep(PAST_THE_MARKER_MS);
        await hold.deliver();
      }

      it('Semaphore: the permits stay free, and no key is left without a TTL', async () => {
        const permits = 2;
        const name = uniqueName('semaphore-acquire');
        const semaphore = new Semaphore(await lockClient(true), name);
        expect(await semaphore.trySetPermits(permits)).toBe(true);
        // Caches the acquire and give-back scripts on the semaphore's node.
        await (await semaphore.acquire(1)).release();
        const available = async () => Number(await redis(['GET', name], name));
        await acquireLateAfterGiveBack(
          { marker: name },
          () => semaphore.tryAcquire(1),
          async () => (await available()) === permits,
        );
        const keys: string[] = [];
        let cursor = '0';
        do {
          const reply = (await redis(['SCAN', cursor, 'MATCH', `*${name}*`, 'COUNT', 1_000], name)) as [
            string,
            string[],
          ];
          cursor = String(reply[0]);
          keys.push(...reply[1].map(String));
        } while (cursor !== '0');
        const withoutTtl: string[] = [];
        for (const key of keys)
          if (key !== name && Number(await redis(['PTTL', key], name)) === -1) withoutTtl.push(key);
        expect({ available: await available(), withoutTtl }).toEqual({ available: permits, withoutTtl: [] });
      });

      it('Lock: the lock is not held afterwards, and another client takes it at once', async () => {
        const name = uniqueName('lock-acquire');
        const client = await lockClient(true);
        const lock = client.lock(name);
        // Caches the acquire and release scripts on the lock's node.
        await (await lock.acquire()).release();
        const exists = async () => Number(await redis(['EXISTS', name], name));
        await acquireLateAfterGiveBack(
          { marker: [name, bulk(DISTINCT_LEASE_MS)] },
          () => lock.tryAcquire({ leaseTime: DISTINCT_LEASE_MS }),
          async () => (await exists()) === 0,
        );
        const existsAfterTheLateCopy = await exists();
        const rival = await (await lockClient(false)).lock(name).tryAcquire({ leaseTime: LONG_LEASE_MS });
        const observed = { existsAfterTheLateCopy, anotherClientGetsIt: rival !== null };
        await rival?.release();
        expect(observed).toEqual({ existsAfterTheLateCopy: 0, anotherClientGetsIt: true });
      });

      it('Lock: a local hand-off that arrives after its receiver gave the hold back frees the lock for everyone', async () => {
        // The hand-off is the receiver's acquisition: a receiver whose client did not learn its
        // outcome gives the new hold back by id; a hand-off that arrives after that passes nothing.
        const name = uniqueName('handoff');
        const client = await lockClient(false);
        const runtime = lockRuntime(client);
        const [from, to] = ['holder', 'waiter'].map((owner) => ({
          field: ownerField(client.id, owner),
          hold: runtime.newHoldId(),
        }));
        if (!from || !to) throw new Error('two holds expected');
        expect(await runtime.run(call(lockCommands.acquire, { name, ...from, lease: LONG_LEASE_MS }))).toEqual({
          status: 'taken',
          grant: null,
        });
        expect(await runtime.run(call(lockCommands.release, { name, ...to }))).toBe('notHeld');
        const handedOff = await runtime.run(call(lockCommands.handOff, { name, from, to, lease: LONG_LEASE_MS }));
        const exists = Number(await redis(['EXISTS', name], name));
        const rival = await (await lockClient(false)).lock(name).tryAcquire({ leaseTime: LONG_LEASE_MS });
        const observed = { handedOff, exists, anotherClientGetsIt: rival !== null };
        await rival?.release();
        expect(observed).toEqual({ handedOff: { status: 'released' }, exists: 0, anotherClientGetsIt: true });
      });
    });
  },
);
