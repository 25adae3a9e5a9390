// What makes a read-write lock one: readers share, a writer waits for every reader (and no
// longer than the last live read hold), a write unlock lets every waiting reader in at once,
// downgrade and refused upgrade, per-hold leases and their renewal, force unlock per mode.
import { BACKENDS, eventually, RENEWED_WATCHDOG_MS, sleep, useSuiteContext } from '@deadbolt/conformance';
import { READ_WRITE_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import {
  InvalidArgumentError,
  LockError,
  LockLostError,
  LockWaitTimeoutError,
  type HeldLock,
  type LockClient,
} from '@deadbolt/core';
import { lockRuntime } from '@deadbolt/core/kit';
import { LockUpgradeError, ReadWriteLock } from '@deadbolt/rwlock';
import { describe, expect, it, vi } from 'vitest';

describe.each(BACKENDS)('ReadWriteLock on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(READ_WRITE_LOCK, 'read'), adapter, topology);
  const raw = (name: string, ...args: (string | number)[]) => ctx.backend().command(args, name);
  /** The lock's hash as field -> value. */
  const hash = async (name: string) => {
    const entries = (await raw(name, 'HGETALL', name)) as string[];
    return Object.fromEntries(
      Array.from({ length: entries.length / 2 }, (_, i) => [entries[2 * i], entries[2 * i + 1]]),
    ) as Record<string, string>;
  };
  const holdKeyExists = async (lock: ReadWriteLock, client: LockClient, owner: string, n: number) => {
    const key = lock.keys.readHoldKey(`${client.id}:${owner}`, n);
    return Number(await raw(lock.name, 'EXISTS', key)) === 1;
  };
  /** Settles with the time it settled at, so a test can tell when a waiter got in. */
  const timed = <T>(promise: Promise<T>) => promise.then((value) => ({ value, at: performance.now() }));

  it('readers share while a writer waits; it gets in after the last reader, one of them with a shorter lease that ran out', async () => {
    const [one, two, writerClient] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('readers-then-writer');
    const [first, second] = [new ReadWriteLock(one, name).readLock(), new ReadWriteLock(two, name).readLock()];
    const a = await first.acquire();
    // b's lease ends last: releasing a changes nothing, releasing b shortens the lock's TTL.
    await sleep(20);
    const b = await second.acquire();
    const shortStart = performance.now();
    const short = await second.acquire({ leaseTime: 1_500 });
    expect([
      await first.holdCount(a.owner),
      await second.holdCount(b.owner),
      await second.holdCount(short.owner),
    ]).toEqual([1, 1, 1]);
    const write = new ReadWriteLock(writerClient, name).writeLock();
    expect(await write.isLocked()).toBe(false);
    let writerIn = false;
    const writer = timed(write.acquire({ waitTime: 10_000 })).finally(() => (writerIn = true));
    await eventually(() => writerClient.activity().channels.length === 1);
    await a.release();
    await b.release();
    await sleep(100);
    // The short-leased reader never released: it still keeps the writer out.
    expect(writerIn).toBe(false);
    expect(await first.isLocked()).toBe(true);
    const { value: held, at } = await writer;
    // In once that lease ran out, not after the 30 s the released readers' TTL said.
    expect(at - shortStart).toBeGreaterThanOrEqual(1_400);
    expect(at - shortStart).toBeLessThan(3_500);
    expect(await write.isHeldBy(held.owner)).toBe(true);
    expect(await eventually(() => short.signal.aborted, 1_000)).toBe(true);
    await expect(short.release()).rejects.toBeInstanceOf(LockLostError);
    await held.release();
    expect(await write.isLocked()).toBe(false);
  });

  it('20 waiting readers in two clients all get in on one write unlock', async () => {
    const [writerClient, one, two] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('wake-all');
    const writeHeld = await new ReadWriteLock(writerClient, name).writeLock().acquire();
    const readers = [one, two].map((client) => new ReadWriteLock(client, name).readLock());
    const waits = Array.from({ length: 20 }, (_, i) => timed(readers[i % 2]!.acquire({ waitTime: 20_000 })));
    await eventually(() => one.activity().channels.length === 1 && two.activity().channels.length === 1);
    await sleep(100);
    const released = performance.now();
    await writeHeld.release();
    // The lock's TTL was 30 s: a reader woken one by one, or by its TTL, would be far later.
    const holds = await Promise.all(waits);
    expect(Math.max(...holds.map(({ at }) => at)) - released).toBeLessThan(2_000);
    // All 20 hold at once: one reader field each, plus `mode`.
    expect(Object.keys(await hash(name))).toHaveLength(21);
    expect((await hash(name))['mode']).toBe('read');
    await Promise.all(holds.map(({ value }) => value.release()));
    expect(await readers[0]!.isLocked()).toBe(false);
    expect(await eventually(async () => (await ctx.backend().pubsubChannels()).length === 0)).toBe(true);
  });

  it('downgrade: the writer takes the read lock and keeps it after releasing the write lock', async () => {
    const [client, other] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('downgrade');
    const lock = new ReadWriteLock(client, name);
    const elsewhere = new ReadWriteLock(other, name);
    const write = await lock.writeLock().acquire({ owner: 'o' });
    const read = await lock.readLock().tryAcquire({ owner: 'o' });
    expect(read).not.toBeNull();
    expect(await hash(name)).toEqual({ mode: 'write', [`${client.id}:o:write`]: '1', [`${client.id}:o`]: '1' });
    expect(await elsewhere.writeLock().tryAcquire()).toBeNull();
    const reader = timed(elsewhere.readLock().acquire({ waitTime: 10_000 }));
    await eventually(() => other.activity().channels.length === 1);
    const released = performance.now();
    await write.release();
    // Write mode ended: the waiting reader is let in at once, beside the downgraded hold.
    const { value: otherRead, at } = await reader;
    expect(at - released).toBeLessThan(2_000);
    expect((await hash(name))['mode']).toBe('read');
    expect(await lock.readLock().holdCount('o')).toBe(1);
    expect(await lock.writeLock().isLocked()).toBe(false);
    expect(await elsewhere.writeLock().tryAcquire()).toBeNull();
    await read!.release();
    await otherRead.release();
    expect(await lock.readLock().isLocked()).toBe(false);
    expect(await holdKeyExists(lock, client, 'o', 1)).toBe(false);
    // The same within nested withLock scopes.
    await lock.writeLock().withLock(() =>
      lock.readLock().withLock(async () => {
        expect(await lock.writeLock().holdCount()).toBe(1);
        expect(await lock.readLock().holdCount()).toBe(1);
      }),
    );
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  });

  it('an upgrade is refused at once with LockUpgradeError and changes nothing', async () => {
    const client = await ctx.client();
    const lock = new ReadWriteLock(client, ctx.uniqueName('upgrade'));
    const read = await lock.readLock().acquire({ owner: 'o' });
    const started = performance.now();
    const error = await lock
      .writeLock()
      .acquire({ owner: 'o' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LockUpgradeError);
    expect(error).toBeInstanceOf(LockError);
    expect(error).toMatchObject({ owner: 'o', lockName: lock.name });
    await expect(lock.writeLock().tryAcquire({ owner: 'o', waitTime: 5_000 })).rejects.toBeInstanceOf(LockUpgradeError);
    await expect(lock.readLock().withLock(() => lock.writeLock().acquire())).rejects.toBeInstanceOf(LockUpgradeError);
    expect(performance.now() - started).toBeLessThan(1_500);
    // Another owner is not upgrading: it just finds the lock taken.
    expect(await lock.writeLock().tryAcquire({ owner: 'p' })).toBeNull();
    expect(client.activity().channels).toEqual([]);
    expect(await lock.readLock().holdCount('o')).toBe(1);
    expect(await lock.writeLock().isLocked()).toBe(false);
    await read.release();
    const write = await lock.writeLock().acquire({ owner: 'o', waitTime: 0 });
    await write.release();
  });

  it("a dead client's reader keeps a writer out only until its own lease ends, and leaves nothing", async () => {
    const [dying, live, writerClient] = [
      await ctx.client({ watchdogTimeout: 1_500 }),
      await ctx.client(),
      await ctx.client(),
    ];
    const name = ctx.uniqueName('dead-reader');
    const deadLock = new ReadWriteLock(dying, name);
    const dead = await deadLock.readLock().acquire({ owner: 'd' });
    const alive = await new ReadWriteLock(live, name).readLock().acquire();
    // The client goes away without releasing: nothing renews its hold any more.
    await dying.close();
    const died = performance.now();
    expect(dead.signal.reason).toBeInstanceOf(LockLostError);
    const write = new ReadWriteLock(writerClient, name).writeLock();
    const writer = timed(write.acquire({ waitTime: 10_000 }));
    await eventually(() => writerClient.activity().channels.length === 1);
    await alive.release();
    await sleep(100);
    expect(await holdKeyExists(deadLock, dying, 'd', 1)).toBe(true);
    expect(await write.tryAcquire()).toBeNull();
    const { value: held, at } = await writer;
    // Its lease was at most 1.5 s from the close, renewed every 0.5 s before.
    expect(at - died).toBeGreaterThanOrEqual(900);
    expect(at - died).toBeLessThan(3_000);
    expect(await hash(name)).toEqual({ mode: 'write', [`${writerClient.id}:${held.owner}:write`]: '1' });
    expect(await holdKeyExists(deadLock, dying, 'd', 1)).toBe(false);
    await held.release();
  });

  it("a dead client's reader field is dropped at the next release once its lease has run out", async () => {
    const [dying, live] = [await ctx.client({ watchdogTimeout: 300 }), await ctx.client()];
    const name = ctx.uniqueName('dead-field');
    await new ReadWriteLock(dying, name).readLock().acquire({ owner: 'd' });
    const lock = new ReadWriteLock(live, name);
    const alive = await lock.readLock().acquire({ owner: 'a' });
    const other = await lock.readLock().acquire({ owner: 'b' });
    await dying.close();
    await sleep(500);
    // Gone from Redis's point of view, but still a field of the hash until someone looks.
    expect(Object.keys(await hash(name))).toContain(`${dying.id}:d`);
    await other.release();
    expect(await hash(name)).toEqual({ mode: 'read', [`${live.id}:a`]: '1' });
    await alive.release();
    const write = await lock.writeLock().acquire({ waitTime: 0 });
    await write.release();
  });

  it('read and write holds are renewed past three times the watchdog timeout, in one call per slot per tick', async () => {
    const client = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
    const observer = await ctx.client();
    const tag = ctx.uniqueName('renewal');
    const lock = new ReadWriteLock(client, `{${tag}}:rw`);
    const reads = [
      await lock.readLock().acquire({ owner: 'r1' }),
      await lock.readLock().acquire({ owner: 'r1' }),
      await lock.readLock().acquire({ owner: 'r2' }),
    ];
    // Write holds of other locks in the same slot ride in the same batches.
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => new ReadWriteLock(client, `{${tag}}:w${i}`).writeLock().acquire()),
    );
    const run = vi.spyOn(lockRuntime(client), 'run');
    await sleep(3 * RENEWED_WATCHDOG_MS + 200);
    const renewals = run.mock.calls.filter(([call]) => call.script.name === 'rwlock/renew');
    run.mockRestore();
    // A tick every third of the timeout; each renews r1's two holds (each on its own), r2 and the
    // 10 writers in one call.
    expect(renewals.length).toBeGreaterThanOrEqual(5);
    expect(renewals.every(([call]) => call.keys.length === 13)).toBe(true);
    expect([...reads, ...writes].some((held) => held.signal.aborted)).toBe(false);
    for (const [owner, n] of [
      ['r1', 1],
      ['r1', 2],
      ['r2', 1],
    ] as const) {
      const ttl = Number(await raw(lock.name, 'PTTL', lock.keys.readHoldKey(`${client.id}:${owner}`, n)));
      expect(ttl).toBeGreaterThan(0);
    }
    expect(await lock.readLock().holdCount('r1')).toBe(2);
    expect(await lock.readLock().remainingTtl()).toBeGreaterThan(0);
    expect(await new ReadWriteLock(observer, lock.name).writeLock().tryAcquire()).toBeNull();
    await Promise.all([...reads, ...writes].map((held) => held.release()));
    expect(client.activity().renewing).toBe(0);
    expect(await raw(lock.name, 'EXISTS', lock.name, lock.keys.readHoldKey(`${client.id}:r1`, 1))).toBe(0);
  });

  it('forceUnlock of the read lock frees only read mode, of the write lock only write mode', async () => {
    // Short, so the forced read hold's holder hears soon.
    const [client, waiterClient] = [await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS }), await ctx.client()];
    const name = ctx.uniqueName('force');
    const lock = new ReadWriteLock(client, name);
    const read = await lock.readLock().acquire({ owner: 'r' });
    expect(await lock.writeLock().forceUnlock()).toBe(false);
    expect(await lock.readLock().isHeldBy('r')).toBe(true);
    expect(await lock.readLock().forceUnlock()).toBe(true);
    expect(await holdKeyExists(lock, client, 'r', 1)).toBe(false);
    expect(await eventually(() => read.signal.aborted, 2_000)).toBe(true);
    await expect(read.release()).rejects.toBeInstanceOf(LockLostError);

    const write = await lock.writeLock().acquire();
    const readers = new ReadWriteLock(waiterClient, name).readLock();
    const waits = Array.from({ length: 3 }, () => readers.acquire({ waitTime: 10_000 }));
    await eventually(() => waiterClient.activity().channels.length === 1);
    expect(await lock.readLock().forceUnlock()).toBe(false);
    expect(await lock.writeLock().isHeldBy(write.owner)).toBe(true);
    const forced = performance.now();
    expect(await lock.writeLock().forceUnlock()).toBe(true);
    // Like a write unlock, it lets every waiting reader in.
    const holds = await Promise.all(waits);
    expect(performance.now() - forced).toBeLessThan(2_000);
    expect(await eventually(() => write.signal.aborted, 2_000)).toBe(true);
    await Promise.all(holds.map((held) => held.release()));
  });

  it('readers wait for a writer: a timed-out or aborted wait throws and leaves nothing behind', async () => {
    const [writerClient, readerClient] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('reader-wait');
    const write = await new ReadWriteLock(writerClient, name).writeLock().acquire();
    const read = new ReadWriteLock(readerClient, name).readLock();
    expect(await read.tryAcquire()).toBeNull();
    await expect(read.acquire({ waitTime: 300 })).rejects.toBeInstanceOf(LockWaitTimeoutError);
    const controller = new AbortController();
    const waiting = read.acquire({ signal: controller.signal });
    await eventually(() => readerClient.activity().channels.length === 1);
    controller.abort(new Error('reader gave up'));
    await expect(waiting).rejects.toThrow('reader gave up');
    expect(readerClient.activity().channels).toEqual([]);
    expect(await eventually(async () => (await ctx.backend().pubsubChannels()).length === 0)).toBe(true);
    expect(await hash(name)).toEqual({ mode: 'write', [`${writerClient.id}:${write.owner}:write`]: '1' });
    await write.release();
  });

  it('tasks of two clients mixing reads and writes: writers alone, readers together', async () => {
    const clients = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('mixed');
    let readers = 0;
    let writers = 0;
    let mostReaders = 0;
    const violations: string[] = [];
    const tasks = clients.flatMap((client) => {
      const lock = new ReadWriteLock(client, name);
      const reading = Array.from({ length: 6 }, async () => {
        for (let i = 0; i < 10; i++) {
          await lock.readLock().withLock(async () => {
            mostReaders = Math.max(mostReaders, ++readers);
            if (writers > 0) violations.push('a reader beside a writer');
            await sleep(2);
            readers--;
          });
        }
      });
      const writing = Array.from({ length: 2 }, async () => {
        for (let i = 0; i < 10; i++) {
          await lock.writeLock().withLock(async () => {
            if (++writers > 1 || readers > 0) violations.push('a writer not alone');
            await sleep(1);
            writers--;
          });
        }
      });
      return [...reading, ...writing];
    });
    await Promise.all(tasks);
    expect(violations).toEqual([]);
    expect(mostReaders).toBeGreaterThan(1);
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  }, 60_000);

  it('refuses an owner id that would read as a writer field, before anything reaches Redis', async () => {
    const client = await ctx.client();
    const lock = new ReadWriteLock(client, ctx.uniqueName('owner'));
    for (const owner of ['x:write', 'write']) {
      await expect(lock.readLock().acquire({ owner })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(lock.writeLock().tryAcquire({ owner })).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(lock.readLock().holdCount(owner)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(await raw(lock.name, 'EXISTS', lock.name)).toBe(0);
    const held: HeldLock = await lock.readLock().acquire({ owner: 'writer' });
    await held.release();
  });
});
