// Semaphore requests that arrive twice, or run while the caller is told they failed (issue 18),
// for real: the driver talks to Redis through the harness's fault proxies, which let one request
// through to Redis, swallow its reply and drop the connection. ioredis then re-sends the request
// after reconnecting (a second run of the same call); node-redis rejects it with the
// connection's error although it ran (see packages/conformance/test/resend.test.ts for both
// drivers' behaviour). The permits are read from Redis directly, not through the proxy.
//
// The outcome asserted is the same for both drivers: one request, one change, and an acquisition
// the caller was told failed holds nothing once its give-back has run.
import { BACKENDS, backendProxies, eventually, useBackendContext } from '@deadbolt/conformance';
import { LockClient, type LockClientOptions } from '@deadbolt/core';
import type { ProxyGroup } from '@deadbolt/test-harness';
import { afterEach, describe, expect, it } from 'vitest';
import { Semaphore, type HeldPermits } from '../src/index.js';

const PERMITS = 4;
/** The command timeout of the proxied clients: a request marker then remembers for 2 s. */
const COMMAND_TIMEOUT_MS = 1_000;
/** Longer than a request marker remembers (2 × the command timeout): a re-send comes after it is gone. */
const PAST_THE_MARKER_MS = 3_500;

/** What a call resolved, or `undefined` when it rejected: the caller was told it failed. */
type Outcome<T> = { readonly value: T } | undefined;
const outcome = <T>(promise: Promise<T>): Promise<Outcome<T>> => promise.then((value) => ({ value }), () => undefined);

let semaphores = 0;

describe.each(BACKENDS)('Semaphore requests that arrive twice, on $adapter/$topology through fault proxies', ({ adapter, topology }) => {
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

  /** A semaphore of {@link PERMITS} on a client whose driver connects through the proxies, its scripts cached. */
  async function proxiedSemaphore(label: string, options: LockClientOptions = {}): Promise<Semaphore> {
    const client = new LockClient(await ctx.backend().createExecutor({ proxied: true }), { commandTimeout: COMMAND_TIMEOUT_MS, ...options });
    clients.push(client);
    const semaphore = new Semaphore(client, `semaphore-resend:${label}:${process.pid}:${++semaphores}`);
    await semaphore.trySetPermits(PERMITS);
    // Each mutating script runs once, so that the request a test cuts is the one it means, not
    // an EVALSHA that Redis answered NOSCRIPT without running it.
    await (await semaphore.acquire()).release();
    await semaphore.addPermits(0);
    await semaphore.drainPermits();
    await semaphore.addPermits(PERMITS);
    return semaphore;
  }

  /** The permits available, read from Redis directly. */
  async function available(semaphore: Semaphore): Promise<number> {
    return Number(await ctx.backend().command(['GET', semaphore.name], semaphore.name));
  }

  /** Cuts the next script call on the semaphore after Redis ran it, partitioning for `partitionMs`. */
  async function cutNext(semaphore: Semaphore, partitionMs?: number) {
    return (await group()).cutAfterRequest({ marker: semaphore.name, commands: ['EVALSHA', 'EVAL'], ...(partitionMs === undefined ? {} : { partitionMs }) });
  }

  /** Waits until the proxied client answers again: any re-send on its connection has run by then. */
  async function untilAnswered(semaphore: Semaphore): Promise<void> {
    const answered = await eventually(() => semaphore.availablePermits().then(() => true, () => false), 15_000, 50);
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
  });

  /** Holds 2 permits, then cuts their release; returns the permits and the release's outcome. */
  async function cutRelease(semaphore: Semaphore, partitionMs?: number): Promise<{ held: HeldPermits; released: Outcome<boolean> }> {
    const held = await semaphore.acquire(2);
    expect(await available(semaphore)).toBe(PERMITS - 2);
    const cut = await cutNext(semaphore, partitionMs);
    const released = await outcome(held.release());
    await cut.until((rule) => rule.cut === 1, 'the release was cut');
    await (await group()).whenHealed();
    await untilAnswered(semaphore);
    return { held, released };
  }

  it('a release whose reply was lost gives the permits back once, and so does the caller retrying it', async () => {
    const semaphore = await proxiedSemaphore('release');
    const { held, released } = await cutRelease(semaphore);
    expect(await available(semaphore)).toBe(PERMITS);
    // A release the caller was told failed may be called again: the same request, counted once.
    if (released === undefined) await held.release();
    expect(await available(semaphore)).toBe(PERMITS);
  });

  it('a release re-sent after its request marker expired gives back nothing more: the grant was marked released', async () => {
    const semaphore = await proxiedSemaphore('late-release');
    const { held, released } = await cutRelease(semaphore, PAST_THE_MARKER_MS);
    expect(await available(semaphore)).toBe(PERMITS);
    if (released === undefined) await held.release();
    expect(await available(semaphore)).toBe(PERMITS);
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
});
