// Locks of every kind held by Deadbolt on each adapter and topology, read back by the command:
// `ls` (pattern, --json checked exactly), `show`, `watch --count 2`, and `unlock --force --yes`
// waking a waiter blocked in acquire().
import { BACKENDS, eventually, useBackendContext } from '@deadbolt/conformance';
import type { HeldLock, LockClient } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { FencedLock } from '@deadbolt/fenced-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { describe, expect, it } from 'vitest';
import type { LockInfo, WatchLook } from '../src/index.js';
import { jsonOf, runInProcess, urlOf } from './helpers.js';

const ttl = () => expect.any(Number) as unknown as number;
const owner = (clientId: string, ownerId: string, role: string, holds: number, extra: object = {}) => ({
  field: role === 'writer' ? `${clientId}:${ownerId}:write` : `${clientId}:${ownerId}`,
  clientId,
  ownerId,
  role,
  holds,
  ...extra,
});

describe.each(BACKENDS)('deadbolt on locks Deadbolt holds over $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const cli = (...argv: string[]) => runInProcess([...argv, '--url', urlOf(ctx.backend())]);
  // Waiters still blocked when a test ends fail as their client closes; that is expected.
  const waiting = <T>(promise: Promise<T>) => promise.catch(() => null);

  async function holdEveryKind(a: LockClient, b: LockClient, prefix: string) {
    await a.lock(`${prefix}:plain`).acquire({ owner: 'o1' });
    await a.lock(`${prefix}:plain`).acquire({ owner: 'o1' });
    const fair = new FairLock(a, `${prefix}:fair`);
    await fair.acquire({ owner: 'f1' });
    void waiting(new FairLock(b, fair.name).acquire({ owner: 'w1' }));
    expect(await eventually(async () => (await queueLength(fair.name)) === 1)).toBe(true);
    void waiting(new FairLock(b, fair.name).acquire({ owner: 'w2' }));
    expect(await eventually(async () => (await queueLength(fair.name)) === 2)).toBe(true);
    const reading = new ReadWriteLock(a, `${prefix}:rw-read`);
    await reading.readLock().acquire({ owner: 'r1' });
    await reading.readLock().acquire({ owner: 'r1' });
    await new ReadWriteLock(b, reading.name).readLock().acquire({ owner: 'r2' });
    await new ReadWriteLock(a, `${prefix}:rw-write`).writeLock().acquire({ owner: 'wr' });
    await new FencedLock(a, `${prefix}:fenced`).acquire({ owner: 't1' });
    // A hash of the application's that only looks like data: not a lock, not listed.
    await ctx.backend().command(['HSET', `${prefix}:data`, 'field', 'value'], `${prefix}:data`);
  }

  async function queueLength(name: string): Promise<number> {
    return Number(await ctx.backend().command(['LLEN', `redisson_lock_queue:{${name}}`], name));
  }

  it('ls lists every kind with holders, hold counts, readers and fair-queue waiters (--json, exactly)', async () => {
    const a = await ctx.client({ clientId: 'cli-a' });
    const b = await ctx.client({ clientId: 'cli-b' });
    const prefix = ctx.uniqueName('ls');
    await holdEveryKind(a, b, prefix);

    const locks = jsonOf<LockInfo[]>(await cli('ls', `${prefix}:*`, '--json'));
    const deadline = () => expect.any(Number) as unknown as number;
    expect(locks).toEqual([
      {
        name: `${prefix}:fair`,
        kind: 'fair',
        held: true,
        ttl: ttl(),
        holders: [owner('cli-a', 'f1', 'owner', 1)],
        hash: { 'cli-a:f1': '1' },
        waiters: [
          { field: 'cli-b:w1', clientId: 'cli-b', ownerId: 'w1', position: 1, deadline: deadline() },
          { field: 'cli-b:w2', clientId: 'cli-b', ownerId: 'w2', position: 2, deadline: deadline() },
        ],
      },
      {
        name: `${prefix}:fenced`,
        kind: 'fenced',
        held: true,
        ttl: ttl(),
        holders: [owner('cli-a', 't1', 'owner', 1)],
        hash: { 'cli-a:t1': '1' },
        waiters: [],
        fencingToken: '1',
      },
      {
        name: `${prefix}:plain`,
        kind: 'lock',
        held: true,
        ttl: ttl(),
        holders: [owner('cli-a', 'o1', 'owner', 2)],
        hash: { 'cli-a:o1': '2' },
        waiters: [],
      },
      {
        name: `${prefix}:rw-read`,
        kind: 'read-write',
        held: true,
        ttl: ttl(),
        mode: 'read',
        waiters: [],
        hash: { mode: 'read', 'cli-a:r1': '2', 'cli-b:r2': '1' },
        holders: expect.arrayContaining([
          owner('cli-a', 'r1', 'reader', 2, { holdTtls: [ttl(), ttl()] }),
          owner('cli-b', 'r2', 'reader', 1, { holdTtls: [ttl()] }),
        ]),
      },
      {
        name: `${prefix}:rw-write`,
        kind: 'read-write',
        held: true,
        ttl: ttl(),
        mode: 'write',
        holders: [owner('cli-a', 'wr', 'writer', 1)],
        hash: { mode: 'write', 'cli-a:wr:write': '1' },
        waiters: [],
      },
    ]);
    const rwRead = locks[3];
    expect(rwRead?.holders).toHaveLength(2);
    // Leases are real: each between 0 and the watchdog's 30 s.
    for (const lock of locks) expect(lock.ttl).toBeGreaterThan(0);
    expect(locks.every((lock) => (lock.ttl ?? 0) <= 30_000)).toBe(true);

    // Without a pattern every lock is listed, and no key that belongs to one (hold markers,
    // queues, counters, read-hold keys) shows up as a lock of its own.
    const all = jsonOf<LockInfo[]>(await cli('ls', '--json'));
    expect(all.map((lock) => lock.name)).toEqual(expect.arrayContaining(locks.map((lock) => lock.name)));
    expect(all.filter((lock) => /^(deadbolt_|redisson_)|rwlock_timeout|:data$/.test(lock.name))).toEqual([]);

    const table = await cli('ls', `${prefix}:*`);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME +KIND +TTL +HOLDER +READERS +WAITERS$/);
    expect(table.stdout).toMatch(new RegExp(`${prefix}:plain +lock +[\\d.]+s +cli-a:o1 x2 +- +-`));
    expect(table.stdout).toMatch(new RegExp(`${prefix}:rw-read +read-write \\(read\\) .* +2 \\(3 holds\\)`));
  });

  it('show prints one lock in full: owners split into client and owner id, the queue with deadlines, the token', async () => {
    const a = await ctx.client({ clientId: 'cli-a' });
    const b = await ctx.client({ clientId: 'cli-b' });
    const prefix = ctx.uniqueName('show');
    await holdEveryKind(a, b, prefix);

    const fair = await cli('show', `${prefix}:fair`);
    expect(fair.stdout).toMatch(/^kind {5}fair$/m);
    expect(fair.stdout).toMatch(/^ {2}owner +cli-a +f1 +1 +the lock TTL$/m);
    expect(fair.stdout).toMatch(/^ {2}1 +cli-b +w1 +in \d/m);
    expect(fair.stdout).toMatch(/^ {2}2 +cli-b +w2 +in \d/m);
    const reading = await cli('show', `${prefix}:rw-read`);
    expect(reading.stdout).toMatch(/^ {2}reader +cli-a +r1 +2 +[\d.]+s, [\d.]+s$/m);
    const fenced = jsonOf<LockInfo>(await cli('show', `${prefix}:fenced`, '--json'));
    expect(fenced.fencingToken).toBe('1');
    expect((await cli('show', `${prefix}:fenced`)).stdout).toMatch(/^token {4}1 /m);
  });

  it('unlock --force --yes frees each kind, and a waiter blocked in acquire() gets the lock at once', async () => {
    const a = await ctx.client({ clientId: 'cli-a' });
    const b = await ctx.client({ clientId: 'cli-b' });
    const prefix = ctx.uniqueName('unlock');
    const kinds = [
      { name: `${prefix}:plain`, take: (c: LockClient, name: string) => c.lock(name) },
      { name: `${prefix}:fair`, take: (c: LockClient, name: string) => new FairLock(c, name) },
      { name: `${prefix}:fenced`, take: (c: LockClient, name: string) => new FencedLock(c, name) },
      { name: `${prefix}:rw`, take: (c: LockClient, name: string) => new ReadWriteLock(c, name).writeLock() },
      {
        name: `${prefix}:rw-read`,
        take: (c: LockClient, name: string) => new ReadWriteLock(c, name).readLock(),
        wait: (c: LockClient, name: string) => new ReadWriteLock(c, name).writeLock(),
      },
    ];
    for (const kind of kinds) {
      await kind.take(a, kind.name).acquire();
      // Without a wake-up the waiter would sleep until the 30 s lease ends.
      const waiter = (kind.wait ?? kind.take)(b, kind.name).acquire({ waitTime: 10_000 });
      await eventually(() => b.activity().channels.length === 1);
      const started = performance.now();
      const unlocked = await cli('unlock', kind.name, '--force', '--yes');
      expect([unlocked.code, unlocked.stderr]).toEqual([0, '']);
      // Nobody was asked, so the line names whose holds were freed.
      expect(unlocked.stdout).toMatch(
        new RegExp(
          `^unlocked "${kind.name}" \\(.+\\), held by (owner|writer|reader) cli-a:\\S+ x1; its waiters were woken\n$`,
        ),
      );
      const held = await waiter;
      expect(performance.now() - started, kind.name).toBeLessThan(2_000);
      await held.release();
    }
  });

  it('unlock --force frees only the holds it showed: a lock released and taken by another owner meanwhile stays with its new holder', async () => {
    const a = await ctx.client({ clientId: 'cli-a' });
    const b = await ctx.client({ clientId: 'cli-b' });
    const prefix = ctx.uniqueName('changed');
    const kinds = [
      { name: `${prefix}:plain`, role: 'owner', take: (c: LockClient, name: string) => c.lock(name) },
      { name: `${prefix}:fair`, role: 'owner', take: (c: LockClient, name: string) => new FairLock(c, name) },
      { name: `${prefix}:fenced`, role: 'owner', take: (c: LockClient, name: string) => new FencedLock(c, name) },
      {
        name: `${prefix}:rw`,
        role: 'writer',
        take: (c: LockClient, name: string) => new ReadWriteLock(c, name).writeLock(),
      },
      {
        name: `${prefix}:rw-read`,
        role: 'reader',
        take: (c: LockClient, name: string) => new ReadWriteLock(c, name).readLock(),
      },
    ];
    for (const kind of kinds) {
      const first = await kind.take(a, kind.name).acquire({ owner: 'first' });
      let second: HeldLock | undefined;
      const questions: string[] = [];
      const run = await runInProcess(['unlock', kind.name, '--force', '--url', urlOf(ctx.backend())], {
        // Between the read and the unlock, while the operator reads the question: the holder
        // releases and another owner takes the lock.
        confirm: async (question) => {
          questions.push(question);
          await first.release();
          second = await kind.take(b, kind.name).acquire({ owner: 'second' });
          return true;
        },
      });
      expect(questions[0], kind.name).toContain(`held by ${kind.role} cli-a:first x1?`);
      expect([run.code, run.stdout, run.stderr], kind.name).toEqual([
        7,
        '',
        `deadbolt: "${kind.name}" changed since it was read: nothing deleted; run again\n`,
      ]);
      expect(await kind.take(b, kind.name).isHeldBy('second'), kind.name).toBe(true);
      await second?.release();
    }
  });

  it('unlock --force frees nothing when the holder re-entered the lock after it was read', async () => {
    const a = await ctx.client({ clientId: 'cli-a' });
    const name = ctx.uniqueName('reentered');
    const lock = a.lock(name);
    const first = await lock.acquire({ owner: 'o1' });
    let again: HeldLock | undefined;
    const run = await runInProcess(['unlock', name, '--force', '--url', urlOf(ctx.backend())], {
      confirm: async () => {
        again = await lock.acquire({ owner: 'o1' });
        return true;
      },
    });
    expect([run.code, run.stderr]).toEqual([
      7,
      `deadbolt: "${name}" changed since it was read: nothing deleted; run again\n`,
    ]);
    expect(await lock.holdCount('o1')).toBe(2);
    await again?.release();
    await first.release();
  });

  it('watch --count 2 --json shows the lock twice, each look with its schema version, and the hand-off as a typed event', async () => {
    const a = await ctx.client({ clientId: 'cli-a' });
    const b = await ctx.client({ clientId: 'cli-b' });
    const name = ctx.uniqueName('watch');
    const first = await a.lock(name).acquire({ owner: 'before' });
    const next = b.lock(name).acquire({ owner: 'after', waitTime: 10_000 });
    await eventually(() => b.activity().channels.length === 1);
    // The release comes after the first look is written, however long connecting took.
    let looked!: () => void;
    const firstLook = new Promise<void>((resolve) => (looked = resolve));
    const watching = runInProcess(
      ['watch', name, '--count', '2', '--interval', '400', '--json', '--url', urlOf(ctx.backend())],
      { onWrite: () => looked() },
    );
    await firstLook;
    await first.release();
    await next;
    const looks = (await watching).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as WatchLook);
    expect(looks.map((look) => [look.schemaVersion, look.name])).toEqual([
      [1, name],
      [1, name],
    ]);
    expect(looks.map((look) => look.lock?.holders.map((holder) => holder.field))).toEqual([
      ['cli-a:before'],
      ['cli-b:after'],
    ]);
    const who = (clientId: string, ownerId: string) => ({ field: `${clientId}:${ownerId}`, clientId, ownerId });
    expect(looks.map((look) => look.events)).toEqual([
      [],
      [{ type: 'handed-off', from: [who('cli-a', 'before')], to: [who('cli-b', 'after')] }],
    ]);
  });
});
