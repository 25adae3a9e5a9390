import {
  ClientClosedError,
  LockLostError,
  LockWaitTimeoutError,
  type LockClient,
  type LockClientEvents,
} from '@deadbolt/core';
import { expect, it } from 'vitest';
import { waitersWaiting, type ConformantLock } from '../kinds/index.js';
import type { SuiteContext } from '../SuiteContext.js';
import { eventually, RENEWED_WATCHDOG_MS, sleep, waitersAsleep } from '../timing.js';

// The name each subject's locks give their kind in the client's events.
const KIND_NAMES: Readonly<Record<string, string>> = {
  Lock: 'lock',
  FairLock: 'fair',
  FencedLock: 'fenced',
  'ReadWriteLock.read': 'read',
  'ReadWriteLock.write': 'write',
  SpinLock: 'spin',
};

type EventName = keyof LockClientEvents;
type Payload<Event extends EventName> = LockClientEvents[Event][0];

/** Every event of `events` that `client` emits from now on, in order, by name. */
function record<Event extends EventName>(client: LockClient, ...events: Event[]): { [E in Event]: Payload<E>[] } {
  const seen = Object.fromEntries(events.map((event) => [event, [] as unknown[]])) as { [E in Event]: Payload<E>[] };
  for (const event of events)
    (client as unknown as NodeJS.EventEmitter).on(event, (payload: Payload<Event>) => seen[event].push(payload));
  return seen;
}

/**
 * The client's events (`LockClientEvents`): acquisitions, releases, waits and their outcomes, the
 * watchdog's batches, with the lock's name and kind and the owner; a listener that throws breaks
 * nothing.
 */
export function eventsSuite(ctx: SuiteContext): void {
  const kind = KIND_NAMES[ctx.subject.label] ?? ctx.subject.label;
  // A lock of the same name that keeps this subject's lock from being taken: itself when it is
  // exclusive, else the kind's exclusive role (a read lock waits for the write lock).
  const blocker = (client: LockClient, name: string): ConformantLock => {
    if (ctx.subject.role.exclusive) return ctx.lockNamed(client, name);
    const exclusive = ctx.subject.kind.roles.find((role) => role.exclusive);
    if (!exclusive) throw new Error(`${ctx.subject.kind.id} has no exclusive role`);
    return ctx.subject.kind.create([client], name, exclusive.name);
  };

  it('every hold ends in exactly one released or lockLost event, and lockLost says why', async () => {
    const client = await ctx.client();
    const seen = record(client, 'acquired', 'released', 'lockLost');
    const lock = ctx.lock(client, 'one-end');
    // Released.
    await (await lock.acquire()).release();
    // A fixed lease that ends under its holder, then its release: one lockLost, for the lease.
    const leased = await lock.acquire({ leaseTime: 150 });
    await eventually(() => leased.signal.aborted, 2_000);
    await leased.release().catch(() => undefined);
    // Found gone by its release, before anything else noticed.
    const forced = await lock.acquire();
    expect(await lock.forceUnlock()).toBe(true);
    await expect(forced.release()).rejects.toBeInstanceOf(LockLostError);
    // Still held when its client closes.
    await lock.acquire();
    await client.close();
    expect(seen.acquired).toHaveLength(4);
    expect(seen.released).toHaveLength(1);
    expect(seen.lockLost.map(({ reason }) => reason)).toEqual(['leaseEnded', 'gone', 'clientClosed']);
    expect(seen.lockLost.every(({ error, reason }) => error.reason === reason)).toBe(true);
  });

  it('an acquisition and its release are reported with the lock, its kind, the owner and the times', async () => {
    const client = await ctx.client();
    const seen = record(client, 'acquired', 'released', 'waitStarted');
    const lock = ctx.lock(client, 'reported');
    const held = await lock.acquire({ owner: 'reporter' });
    await sleep(20);
    await held.release();
    expect(seen.acquired).toEqual([
      { name: lock.name, kind, owner: 'reporter', waitedMs: expect.any(Number), passedLocally: false },
    ]);
    expect(seen.released).toEqual([{ name: lock.name, kind, owner: 'reporter', heldMs: expect.any(Number) }]);
    expect(seen.released[0]!.heldMs).toBeGreaterThanOrEqual(15);
    expect(seen.waitStarted).toEqual([]);
  });

  it('a wait is reported from its start to its outcome: timed out (also with no wait time), aborted, taken', async () => {
    const [holder, client] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('waits');
    const seen = record(client, 'waitStarted', 'waitEnded', 'acquired');
    const lock = ctx.lockNamed(client, name);
    const held = await blocker(holder, name).acquire();
    expect(await lock.tryAcquire({ owner: 'no-wait' })).toBeNull();
    await expect(lock.acquire({ owner: 'timed', waitTime: 60 })).rejects.toBeInstanceOf(LockWaitTimeoutError);
    await expect(lock.acquire({ owner: 'aborted', signal: AbortSignal.timeout(60) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    const taking = lock.acquire({ owner: 'taker', waitTime: 10_000 });
    await eventually(() => seen.waitStarted.length === 4);
    await held.release();
    const taken = await taking;
    await taken.release();
    expect(seen.waitStarted).toEqual(['no-wait', 'timed', 'aborted', 'taker'].map((owner) => ({ name, kind, owner })));
    expect(seen.waitEnded.map(({ owner, outcome }) => [owner, outcome])).toEqual([
      ['no-wait', 'timedOut'],
      ['timed', 'timedOut'],
      ['aborted', 'aborted'],
      ['taker', 'taken'],
    ]);
    expect(seen.waitEnded[1]!.waitedMs).toBeGreaterThanOrEqual(50);
    expect(seen.waitEnded[2]!.error).toMatchObject({ name: 'TimeoutError' });
    expect(seen.acquired.map(({ owner }) => owner)).toEqual(['taker']);
  });

  it('a wait that fails is reported with its error', async () => {
    const [holder, client] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('failed-wait');
    const seen = record(client, 'waitEnded');
    const held = await blocker(holder, name).acquire();
    const waiting = ctx.lockNamed(client, name).acquire({ owner: 'closed-out', waitTime: 10_000 });
    await waitersWaiting(ctx.subject.kind, client);
    // Expected before the close rejects it, or the rejection is unhandled while close runs.
    const closedOut = expect(waiting).rejects.toBeInstanceOf(ClientClosedError);
    await client.close();
    await closedOut;
    expect(seen.waitEnded).toEqual([
      {
        name,
        kind,
        owner: 'closed-out',
        waitedMs: expect.any(Number),
        outcome: 'failed',
        error: expect.any(ClientClosedError),
      },
    ]);
    await held.release();
  });

  it('the watchdog reports each batch it renewed', async () => {
    const client = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
    const seen = record(client, 'renewed', 'lockLost');
    const held = await ctx.lock(client, 'renewed').acquire();
    expect(await eventually(() => seen.renewed.length >= 2, 2_000)).toBe(true);
    await held.release();
    expect(seen.renewed[0]).toEqual({ holds: 1, lost: 0, tookMs: expect.any(Number) });
    expect(seen.lockLost).toEqual([]);
  });

  it('a fixed lease that runs out under its holder is reported as lost', async () => {
    const client = await ctx.client();
    const seen = record(client, 'lockLost');
    const lock = ctx.lock(client, 'lease-ran-out');
    const held = await lock.acquire({ owner: 'short-lease', leaseTime: 150 });
    expect(await eventually(() => seen.lockLost.length === 1, 2_000)).toBe(true);
    expect(seen.lockLost[0]).toMatchObject({ key: lock.name, error: held.signal.reason });
    expect(seen.lockLost[0]!.field).toContain(`${client.id}:short-lease`);
  });

  it('a listener that throws breaks nothing: the lock is taken and released, and its error is a process warning', async () => {
    const client = await ctx.client();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (const event of ['acquired', 'released'] as const) {
        client.on(event, () => {
          throw new Error(`a bug in a listener of ${event}`);
        });
      }
      const lock = ctx.lock(client, 'throwing-listener');
      const held = await lock.acquire();
      await held.release();
      expect(await lock.isLocked()).toBe(false);
      expect(client.activity().renewing).toBe(0);
      expect(await eventually(() => warnings.length === 2)).toBe(true);
      expect(warnings.map(({ name }) => name)).toEqual(['DeadboltListenerError', 'DeadboltListenerError']);
    } finally {
      process.off('warning', onWarning);
    }
  });

  if (ctx.subject.kind.localHandoff[ctx.subject.role.name]) {
    it('a lock passed by a local holder is reported as passed locally', async () => {
      const client = await ctx.client();
      const seen = record(client, 'acquired');
      const lock = ctx.lock(client, 'passed');
      const first = await lock.acquire();
      const waiting = lock.acquire({ waitTime: 10_000 });
      await waitersAsleep(client);
      await first.release();
      const second = await waiting;
      await second.release();
      expect(seen.acquired.map(({ owner, passedLocally }) => [owner, passedLocally])).toEqual([
        [first.owner, false],
        [second.owner, true],
      ]);
    });
  }
}
