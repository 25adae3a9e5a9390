// Semaphore requests that arrive twice, or late, or run while the caller is told they failed
// (issues 18 and 30), for real: the driver talks to Redis through the harness's fault proxies,
// which let one request through to Redis, swallow its reply and drop the connection (partitioning
// for a while, or not), or keep a copy of it that the test delivers later on the old connection,
// as a slow network would. ioredis re-sends a request whose reply it lost once it has reconnected,
// after any delay; node-redis and Valkey GLIDE reject it although it ran (see
// packages/conformance/test/resend.test.ts). The permits are read from Redis directly.
//
// Every outcome asserted holds for every driver: one request, one change; a copy that arrives
// after its deadline is refused; an acquisition the caller was told failed holds nothing once its
// give-back has run, and a copy of it that comes later takes nothing; nothing kept to recognise a
// copy lives without a TTL.
import { BACKENDS, backendProxies, eventually, sleep, useBackendContext } from '@deadbolt/conformance';
import { LockClient, LockLostError, type LockClientOptions } from '@deadbolt/core';
import type { ProxyGroup } from '@deadbolt/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { PermitExpirableSemaphore, Semaphore, type HeldPermits, type SemaphoreBase } from '../src/index.js';

const PERMITS = 4;
/** The command timeout of the proxied clients: a request's deadline is about this long after it is sent. */
const COMMAND_TIMEOUT_MS = 1_000;
/**
 * Past any request's deadline, and past the life of every record kept for it: the deadline is
 * commandTimeout after the send plus the error of the client's estimate of the server's clock
 * (under commandTimeout), and a record lives at most twice commandTimeout past that.
 */
const PAST_THE_DEADLINE_MS = 3_500;
/** A lease far longer than a test. */
const LONG_LEASE_MS = 20_000;
/** The shortened lease of the update whose reply is lost. */
const SHORT_LEASE_MS = 800;
/** How much later than its holder's signal a rival may take a permit: timers and wall clocks differ by a millisecond or two. */
const CLOCK_SLACK_MS = 5;

/** What a call resolved, or `undefined` when it rejected: the caller was told it failed. */
type Outcome<T> = { readonly value: T } | undefined;
const outcome = <T>(promise: Promise<T>): Promise<Outcome<T>> =>
  promise.then(
    (value) => ({ value }),
    () => undefined,
  );

/** A RESP reply a late copy got: a refusal past its deadline, or what a copy answers. */
const reply = (frames: Buffer[]) => String(frames[0]);
const REFUSED_AS_LATE = /^-DEADBOLT_LATE /;

let semaphores = 0;

describe.each(BACKENDS)(
  'Semaphore requests that arrive twice or late, on $adapter/$topology through fault proxies',
  ({ adapter, topology }) => {
    const ctx = useBackendContext(adapter, topology, { dedicated: true });
    const clients: LockClient[] = [];

    /** The fault proxies in front of the backend, started on first use. */
    const group = async (): Promise<ProxyGroup> => (await backendProxies(ctx.backend())).proxies;

    afterEach(async () => {
      const proxies = await group();
      proxies.clearRules();
      proxies.heal();
      await Promise.all(clients.splice(0).map((client) => client.close()));
    });

    /** A client whose driver connects through the proxies. */
    async function proxiedClient(options: LockClientOptions = {}): Promise<LockClient> {
      const client = new LockClient(await ctx.backend().createExecutor({ proxied: true }), {
        commandTimeout: COMMAND_TIMEOUT_MS,
        ...options,
      });
      clients.push(client);
      return client;
    }

    const uniqueName = (label: string) => `semaphore-resend:${label}:${process.pid}:${++semaphores}`;

    /** A semaphore of {@link PERMITS} on a proxied client, its scripts cached. */
    async function proxiedSemaphore(label: string, options: LockClientOptions = {}): Promise<Semaphore> {
      const semaphore = new Semaphore(await proxiedClient(options), uniqueName(label));
      await semaphore.trySetPermits(PERMITS);
      // Each mutating script runs once, so that the request a test cuts is the one it means, not
      // an EVALSHA that Redis answered NOSCRIPT without running it.
      await (await semaphore.acquire()).release();
      await semaphore.addPermits(0);
      await semaphore.drainPermits();
      await semaphore.addPermits(PERMITS);
      return semaphore;
    }

    /** A permit-expirable semaphore of {@link PERMITS} on a proxied client, its scripts cached. */
    async function proxiedExpirable(label: string): Promise<PermitExpirableSemaphore> {
      const semaphore = new PermitExpirableSemaphore(await proxiedClient(), uniqueName(label));
      await semaphore.trySetPermits(PERMITS);
      const held = await semaphore.acquire(1, { leaseTime: LONG_LEASE_MS });
      await held.updateLeaseTime(LONG_LEASE_MS);
      await held.release();
      return semaphore;
    }

    /** The permits available, read from Redis directly. */
    async function available(semaphore: SemaphoreBase): Promise<number> {
      return Number(await ctx.backend().command(['GET', semaphore.name], semaphore.name));
    }

    /** Deadbolt's keys beside the semaphore (records, holds) that have no TTL: none may, once nothing is held. */
    async function keptForever(semaphore: SemaphoreBase): Promise<string[]> {
      const { name } = semaphore;
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = (await ctx
          .backend()
          .command(['SCAN', cursor, 'MATCH', `deadbolt_*${name}*`, 'COUNT', 1_000], name)) as [string, string[]];
        cursor = next;
        keys.push(...found);
      } while (cursor !== '0');
      const ttls = await Promise.all(
        keys.map(async (key) => [key, Number(await ctx.backend().command(['PTTL', key], name))] as const),
      );
      return ttls.filter(([, ttl]) => ttl === -1).map(([key]) => key);
    }

    /** Cuts the next script call on the semaphore after Redis ran it, partitioning for `partitionMs`. */
    async function cutNext(semaphore: SemaphoreBase, partitionMs?: number) {
      return (await group()).cutAfterRequest({
        marker: semaphore.name,
        commands: ['EVALSHA', 'EVAL'],
        ...(partitionMs === undefined ? {} : { partitionMs }),
      });
    }

    /** Lets the next script call on the semaphore run, swallows its reply and keeps a copy of it for a late delivery. */
    async function duplicateNext(semaphore: SemaphoreBase) {
      return (await group()).holdRequest({ marker: semaphore.name, commands: ['EVALSHA', 'EVAL'], duplicate: true });
    }

    /** Waits until the proxied client answers again: any re-send on its connection has run by then. */
    async function untilAnswered(semaphore: SemaphoreBase): Promise<void> {
      const answered = await eventually(
        () =>
          semaphore.availablePermits().then(
            () => true,
            () => false,
          ),
        15_000,
        50,
      );
      expect(answered, 'the proxied client answers again').toBe(true);
    }

    it('an acquisition whose reply was lost takes its permits once, and one that failed is given back', async () => {
      const semaphore = await proxiedSemaphore('acquire', { commandTimeout: 5_000 });
      const cut = await cutNext(semaphore);
      const acquired = await outcome(semaphore.acquire(2, { waitTime: 0 }));
      await untilAnswered(semaphore);
      const held = acquired?.value.permits ?? 0;
      // A give-back runs after the failed acquisition rejected, in the background or not.
      expect(await eventually(async () => (await available(semaphore)) === PERMITS - held, 3_000)).toBe(true);
      expect({ cut: cut.cut, available: await available(semaphore) }).toEqual({ cut: 1, available: PERMITS - held });
      await acquired?.value.release();
      expect(await available(semaphore)).toBe(PERMITS);
      expect(await keptForever(semaphore)).toEqual([]);
    });

    /** Holds 2 permits, then cuts their release; returns the permits and the release's outcome. */
    async function cutRelease(
      semaphore: Semaphore,
      partitionMs?: number,
    ): Promise<{ held: HeldPermits; released: Outcome<void> }> {
      const held = await semaphore.acquire(2);
      expect(await available(semaphore)).toBe(PERMITS - 2);
      const cut = await cutNext(semaphore, partitionMs);
      const released = await outcome(held.release());
      await cut.until((rule) => rule.cut === 1, 'the release was cut');
      await (await group()).whenHealed();
      await untilAnswered(semaphore);
      return { held, released };
    }

    /** Calls `release()` again, as a caller told it failed may, until the proxied client answers it. */
    async function releaseAgain(held: HeldPermits): Promise<void> {
      expect(
        await eventually(
          () =>
            held.release().then(
              () => true,
              // An answer too: the first try's outcome was unknown and nothing was left to give back.
              (error: unknown) => error instanceof LockLostError,
            ),
          15_000,
          50,
        ),
        'the release answered',
      ).toBe(true);
    }

    it('a release whose reply was lost gives the permits back once, and so does the caller retrying it', async () => {
      const semaphore = await proxiedSemaphore('release');
      const { held, released } = await cutRelease(semaphore);
      expect(await available(semaphore)).toBe(PERMITS);
      // A release the caller was told failed may be called again: the same request, counted once.
      if (released === undefined) await releaseAgain(held);
      expect(await available(semaphore)).toBe(PERMITS);
    });

    it('a release re-sent after a partition longer than its record lives gives back nothing more: the hold is gone', async () => {
      const semaphore = await proxiedSemaphore('late-release');
      const { held, released } = await cutRelease(semaphore, PAST_THE_DEADLINE_MS);
      expect(await available(semaphore)).toBe(PERMITS);
      if (released === undefined) await releaseAgain(held);
      expect(await available(semaphore)).toBe(PERMITS);
      expect(await keptForever(semaphore)).toEqual([]);
    });

    it("release(n) and addPermits whose reply was lost add once; drainPermits drains once and replies the first run's count", async () => {
      const semaphore = await proxiedSemaphore('add');
      await cutNext(semaphore);
      await outcome(semaphore.release(3));
      await untilAnswered(semaphore);
      expect(await available(semaphore)).toBe(PERMITS + 3);
      await cutNext(semaphore);
      await outcome(semaphore.addPermits(-3));
      await untilAnswered(semaphore);
      expect(await available(semaphore)).toBe(PERMITS);
      await cutNext(semaphore);
      const drained = await outcome(semaphore.drainPermits());
      await untilAnswered(semaphore);
      expect(drained?.value ?? PERMITS).toBe(PERMITS);
      expect(await available(semaphore)).toBe(0);
    });

    it('release(n) and addPermits re-sent after a partition longer than their deadline add once at most', async () => {
      // The request cut is the one that ran, unless a driver still reconnecting sent it past its
      // deadline and Redis refused it (the cut then swallowed the refusal): added once, or not at
      // all, and the caller told the outcome is unknown; never twice.
      const semaphore = await proxiedSemaphore('add-partitioned');
      await cutNext(semaphore, PAST_THE_DEADLINE_MS);
      await outcome(semaphore.release(1));
      await (await group()).whenHealed();
      await untilAnswered(semaphore);
      const afterRelease = await available(semaphore);
      expect([PERMITS, PERMITS + 1]).toContain(afterRelease);
      await cutNext(semaphore, PAST_THE_DEADLINE_MS);
      await outcome(semaphore.addPermits(2));
      await (await group()).whenHealed();
      await untilAnswered(semaphore);
      expect([afterRelease, afterRelease + 2]).toContain(await available(semaphore));
      expect(await keptForever(semaphore)).toEqual([]);
    });

    it('trySetPermits whose reply was lost never says it found the permits set when it set them', async () => {
      const warm = await proxiedSemaphore('set-warm');
      const semaphore = new Semaphore(warm.client, uniqueName('set'));
      await cutNext(semaphore);
      const set = await outcome(semaphore.trySetPermits(3));
      await untilAnswered(semaphore);
      expect(set?.value ?? true).toBe(true);
      expect(await available(semaphore)).toBe(3);
    });

    it('a copy of an acquisition delivered after its permits were given back takes nothing, before its deadline or after it', async () => {
      const semaphore = await proxiedSemaphore('late-acquire');
      for (const wait of [0, PAST_THE_DEADLINE_MS]) {
        const copy = await duplicateNext(semaphore);
        const acquired = await outcome(semaphore.acquire(2, { waitTime: 0 }));
        await copy.until((rule) => rule.held === 1, 'the attempt is held');
        await untilAnswered(semaphore);
        // Held (ioredis's re-send answered) and released, or given back after the failure.
        await acquired?.value.release();
        expect(await eventually(async () => (await available(semaphore)) === PERMITS, 3_000)).toBe(true);
        await sleep(wait);
        const late = reply(await copy.deliver());
        if (wait > 0) expect(late).toMatch(REFUSED_AS_LATE);
        // Given back ({-1, the semaphore's PTTL}), or already past its deadline on a slow machine: taken, it would reply {1, ...}.
        else expect(late.startsWith('*2\r\n:-1\r\n') || REFUSED_AS_LATE.test(late), late).toBe(true);
        expect(await available(semaphore)).toBe(PERMITS);
      }
      expect(await keptForever(semaphore)).toEqual([]);
    });

    it('a copy of a permit-expirable acquisition delivered after its permits were given back takes nothing, before its deadline or after it', async () => {
      const semaphore = await proxiedExpirable('late-expirable');
      for (const wait of [0, PAST_THE_DEADLINE_MS]) {
        const copy = await duplicateNext(semaphore);
        const acquired = await outcome(semaphore.acquire(2, { waitTime: 0, leaseTime: LONG_LEASE_MS }));
        await copy.until((rule) => rule.held === 1, 'the attempt is held');
        await untilAnswered(semaphore);
        await acquired?.value.release();
        expect(await eventually(async () => (await available(semaphore)) === PERMITS, 3_000)).toBe(true);
        await sleep(wait);
        const late = reply(await copy.deliver());
        if (wait > 0) expect(late).toMatch(REFUSED_AS_LATE);
        // Took nothing ({0}), or already past its deadline on a slow machine.
        else expect(late.startsWith('*1\r\n:0') || REFUSED_AS_LATE.test(late), late).toBe(true);
        expect(await available(semaphore)).toBe(PERMITS);
        expect(await ctx.backend().command(['ZCARD', semaphore.timeoutsKey], semaphore.name)).toBe(0);
      }
      expect(await keptForever(semaphore)).toEqual([]);
    });

    it('an updateLeaseTime whose reply was lost leaves the holder believing the earlier lease end: its signal aborts before a rival holds the permits', async () => {
      const semaphore = await proxiedExpirable('update-lost');
      const rival = new PermitExpirableSemaphore(await ctx.client(), semaphore.name);
      const held = await semaphore.acquire(PERMITS, { leaseTime: LONG_LEASE_MS });
      let abortedAt = Infinity;
      held.signal.addEventListener('abort', () => (abortedAt = performance.now()));
      await cutNext(semaphore);
      const sentAt = performance.now();
      await outcome(held.updateLeaseTime(SHORT_LEASE_MS));
      const taken = await rival.acquire(1, { waitTime: LONG_LEASE_MS / 2 });
      const takenAt = performance.now();
      expect(held.signal.aborted).toBe(true);
      expect(abortedAt).toBeLessThanOrEqual(takenAt + CLOCK_SLACK_MS);
      expect(abortedAt - sentAt).toBeLessThan(LONG_LEASE_MS / 4);
      await taken.release();
    });
  },
);
