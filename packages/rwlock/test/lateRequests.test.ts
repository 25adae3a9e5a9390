// Requests of the read-write lock that arrive twice or late (issue 30): an acquisition counts
// once and, after its release or give-back, takes nothing; a force-release frees only the hash it
// was given, once; an extend sent earlier than another changes nothing after it, nor does a
// renewal; a request past its deadline is refused. The kinds' calls are run directly, as a driver
// re-sends them, with the ids the client would use.
import { BACKENDS, useSuiteContext } from '@deadbolt/conformance';
import { READ_WRITE_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import type { LockClient } from '@deadbolt/core';
import {
  call,
  lockRuntime,
  requestRecordKey,
  type Command,
  type CommandContext,
  type LockKind,
} from '@deadbolt/core/kit';
import { readLockKind, writeLockKind } from '@deadbolt/rwlock';
import { describe, expect, it } from 'vitest';
import { readAcquire } from '../src/commands/readAcquire.js';
import { readWriteForceRelease } from '../src/commands/readWriteForceRelease.js';
import { readExtend, readWriteRenew } from '../src/commands/readWriteRenew.js';
import { writeAcquire } from '../src/commands/writeAcquire.js';
import { writeExtend } from '../src/commands/writeExtend.js';

const LEASE = 30_000;
const kinds = [
  { mode: 'read', kind: readLockKind },
  { mode: 'write', kind: writeLockKind },
] as const;

describe.each(BACKENDS)(
  'ReadWriteLock requests that arrive twice or late on $adapter/$topology',
  ({ adapter, topology }) => {
    const ctx = useSuiteContext(subjectOf(READ_WRITE_LOCK, 'read'), adapter, topology);
    const raw = (name: string, ...args: (string | number)[]) => ctx.backend().command(args, name);
    const hash = async (name: string) => {
      const entries = (await raw(name, 'HGETALL', name)) as string[];
      return Object.fromEntries(
        Array.from({ length: entries.length / 2 }, (_, i) => [entries[2 * i], entries[2 * i + 1]]),
      ) as Record<string, string>;
    };
    const setUp = async (label: string) => {
      const client: LockClient = await ctx.client();
      const runtime = lockRuntime(client);
      return { client, runtime, name: ctx.uniqueName(label), field: (owner: string) => `${client.id}:${owner}` };
    };

    it.each(kinds)(
      'a $mode acquisition counts once, and a copy after its release or its give-back takes nothing',
      async ({ kind }) => {
        const { runtime, name, field } = await setUp('acquire-twice');
        const lock: LockKind = kind(name);
        const attempt = { field: field('o'), hold: runtime.newHoldId(), lease: LEASE, waitTime: 0 };
        expect(await runtime.run(lock.acquire(attempt))).toMatchObject({ status: 'taken' });
        expect(await runtime.run(lock.acquire(attempt))).toMatchObject({ status: 'taken' });
        expect((await runtime.run(lock.state(lock.holdField?.(attempt.field) ?? attempt.field))).holds).toBe(1);
        expect(await runtime.run(lock.release(attempt.field, attempt.hold))).toBe('freed');
        // A copy after the release: the record says the attempt ran, its hold is gone.
        expect(await runtime.run(lock.acquire(attempt))).toEqual({ status: 'heldByOther', ttl: 0 });
        expect(await raw(name, 'EXISTS', name)).toBe(0);

        // An attempt whose outcome the client never learned, given back before it reached Redis.
        const lost = { ...attempt, hold: runtime.newHoldId() };
        expect(await runtime.run(lock.release(lost.field, lost.hold))).toBe('notHeld');
        expect(await runtime.run(lock.acquire(lost))).toMatchObject({ status: 'heldByOther' });
        expect(await raw(name, 'EXISTS', name)).toBe(0);
        // What recognises the copy lives only a while.
        expect(await raw(name, 'PTTL', requestRecordKey(name, lost.hold))).toBeGreaterThan(0);
      },
    );

    it.each(kinds)(
      'a $mode force-release frees only the hash it was given, once: a copy after the lock was taken again frees nothing',
      async ({ mode, kind }) => {
        const { runtime, name, field } = await setUp('force-once');
        const lock: LockKind = kind(name);
        const other: LockKind = kind === readLockKind ? writeLockKind(name) : readLockKind(name);
        const first = { field: field('first'), hold: runtime.newHoldId(), lease: LEASE, waitTime: 0 };
        await runtime.run(lock.acquire(first));
        const holders = await hash(name);
        expect(holders.mode).toBe(mode);
        // The other half deletes nothing in this mode; a hash that is not the lock's deletes nothing.
        expect(await runtime.run(other.forceRelease({ request: runtime.newHoldId(), holders }))).toBe(false);
        expect(
          await runtime.run(
            lock.forceRelease({ request: runtime.newHoldId(), holders: { ...holders, [field('first')]: '2' } }),
          ),
        ).toBe(false);
        expect(await hash(name)).toEqual(holders);

        const request = runtime.newHoldId();
        expect(await runtime.run(lock.forceRelease({ request, holders }))).toBe(true);
        expect(await raw(name, 'EXISTS', name)).toBe(0);
        const second = { field: field('second'), hold: runtime.newHoldId(), lease: LEASE, waitTime: 0 };
        await runtime.run(lock.acquire(second));
        const retaken = await hash(name);
        // The driver sends the force-release again: it answers its first outcome and frees nothing.
        expect(await runtime.run(lock.forceRelease({ request, holders }))).toBe(true);
        expect(await hash(name)).toEqual(retaken);
        expect(await raw(name, 'PTTL', requestRecordKey(name, request))).toBeGreaterThan(0);
      },
    );

    it('a write extend sent before another that arrives after it changes nothing, nor does a renewal', async () => {
      const { runtime, name, field } = await setUp('extend-order');
      const lock = writeLockKind(name);
      const attempt = { field: field('o'), hold: runtime.newHoldId(), lease: LEASE, waitTime: 0 };
      await runtime.run(lock.acquire(attempt));
      const [earlier, later] = [runtime.newHoldId(), runtime.newHoldId()];
      expect(await runtime.run(lock.extend(attempt.field, attempt.hold, 2_000, later))).toBe(true);
      expect(await runtime.run(lock.extend(attempt.field, attempt.hold, 60_000, earlier))).toBe(true);
      expect(await runtime.run(lock.extend(attempt.field, attempt.hold, 60_000, later))).toBe(true);
      expect(Number(await raw(name, 'PTTL', name))).toBeLessThanOrEqual(2_000);
      // A renewal sent before the extend, arriving after it: the hold stands, its lease stays.
      const renewed = await runtime.run(
        call(readWriteRenew, { lease: 60_000, holds: [{ name, field: `${attempt.field}:write`, hold: attempt.hold }] }),
      );
      expect(renewed).toEqual([true]);
      expect(Number(await raw(name, 'PTTL', name))).toBeLessThanOrEqual(2_000);
    });

    it('every request that takes or lengthens is refused past its deadline, and changes nothing', async () => {
      const { runtime, name, field } = await setUp('late');
      const reader = field('o');
      const writer = `${reader}:write`;
      const context: CommandContext = { publish: 'publish', recordTtl: LEASE, now: Date.now(), deadline: 1 };
      const refused = async <I>(command: Command<I, unknown>, input: I) => {
        const keys = command.keys(input);
        await expect(
          raw(name, 'EVAL', command.script.source, keys.length, ...keys, ...command.args(input, context)),
        ).rejects.toThrow(/DEADBOLT_LATE/);
      };
      const hold = runtime.newHoldId();
      await refused(readAcquire, { name, field: reader, writerField: writer, hold, lease: LEASE });
      await refused(writeAcquire, { name, field: writer, readerField: reader, hold, lease: LEASE });
      expect(await raw(name, 'EXISTS', name, requestRecordKey(name, hold))).toBe(0);

      const taken = { field: reader, hold: runtime.newHoldId(), lease: LEASE, waitTime: 0 };
      await runtime.run(writeLockKind(name).acquire(taken));
      const holders = await hash(name);
      const ttl = Number(await raw(name, 'PTTL', name));
      await refused(writeExtend, {
        name,
        field: writer,
        hold: taken.hold,
        lease: 60_000,
        request: runtime.newHoldId(),
      });
      await refused(readExtend, { name, field: reader, hold: taken.hold, lease: 60_000 });
      await refused(readWriteRenew, { lease: 60_000, holds: [{ name, field: writer, hold: taken.hold }] });
      await refused(readWriteForceRelease, { name, mode: 'write', request: runtime.newHoldId(), holders });
      expect(await hash(name)).toEqual(holders);
      expect(Number(await raw(name, 'PTTL', name))).toBeLessThanOrEqual(ttl);
    });
  },
);
