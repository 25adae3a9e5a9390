// The command reads the key layouts the lock kinds export: with a lock of each kind held and
// waited for, every key and channel the kinds wrote beside a lock is taken for part of it, the
// keys the command reads beside a lock are the ones written, and `ls` finds each lock by name.
import { eventually, useBackendContext } from '@deadbolt/conformance';
import { FairLock } from '@deadbolt/fair-lock';
import { FencedLock } from '@deadbolt/fenced-lock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { Semaphore } from '@deadbolt/semaphore';
import { expect, it } from 'vitest';
import type { LockInfo } from '../src/index.js';
import { belongsToALock, lockKeys } from '../src/keyNames.js';
import { jsonOf, runInProcess, urlOf } from './helpers.js';

const ctx = useBackendContext('ioredis', 'standalone');
const raw = (...args: (string | number)[]) => ctx.backend().command(args);
// Waiters still blocked when the test ends fail as their client closes; that is expected.
const waiting = <T>(promise: Promise<T>) => void promise.catch(() => null);

it('knows every key and channel each kind writes beside a lock, and reads the ones written', async () => {
  const a = await ctx.client({ clientId: 'layout-a' });
  const b = await ctx.client({ clientId: 'layout-b' });
  const prefix = ctx.uniqueName('layouts');
  const name = (kind: string) => `${prefix}:${kind}`;
  const wait = { waitTime: 10_000 };

  await a.lock(name('plain')).acquire({ owner: 'o1' });
  waiting(b.lock(name('plain')).acquire({ owner: 'o2', ...wait }));
  await new FairLock(a, name('fair')).acquire({ owner: 'f1' });
  waiting(new FairLock(b, name('fair')).acquire({ owner: 'f2', ...wait }));
  const reading = new ReadWriteLock(a, name('rw-read'));
  await reading.readLock().acquire({ owner: 'r1' });
  await reading.readLock().acquire({ owner: 'r1' });
  waiting(new ReadWriteLock(b, reading.name).writeLock().acquire({ owner: 'w2', ...wait }));
  await new ReadWriteLock(a, name('rw-write')).writeLock().acquire({ owner: 'w1' });
  await new FencedLock(a, name('fenced')).acquire({ owner: 't1' });
  const semaphore = new Semaphore(a, name('semaphore'));
  await semaphore.trySetPermits(1);
  await semaphore.acquire();
  waiting(new Semaphore(b, semaphore.name).acquire(1, wait));

  const names = ['plain', 'fair', 'rw-read', 'rw-write', 'fenced', 'semaphore'].map(name);
  const channels = async () => (await raw('PUBSUB', 'CHANNELS', `*${prefix}*`)) as string[];
  // The plain lock's, the fair waiter's own, the read-write lock's and the semaphore's.
  expect(await eventually(async () => (await channels()).length === 4)).toBe(true);
  const keys = (await raw('KEYS', `*${prefix}*`)) as string[];

  expect(names.filter(belongsToALock)).toEqual([]);
  expect(keys.filter((key) => !names.includes(key) && !belongsToALock(key))).toEqual([]);
  expect((await channels()).filter((channel) => !belongsToALock(channel))).toEqual([]);
  expect(keys).toEqual(
    expect.arrayContaining([
      ...names,
      ...names.filter((lock) => lock !== name('semaphore')).map((lock) => lockKeys(lock).holdMarkers),
      lockKeys(name('fair')).queue,
      lockKeys(name('fair')).timeouts,
      lockKeys(name('fenced')).token,
      lockKeys(name('rw-read')).readHold('layout-a:r1', 1),
      lockKeys(name('rw-read')).readHold('layout-a:r1', 2),
    ]),
  );

  const listed = jsonOf<LockInfo[]>(await runInProcess(['ls', `${prefix}:*`, '--json', '--url', urlOf(ctx.backend())]));
  expect(listed.map((lock) => [lock.name, lock.kind])).toEqual([
    [name('fair'), 'fair'],
    [name('fenced'), 'fenced'],
    [name('plain'), 'lock'],
    [name('rw-read'), 'read-write'],
    [name('rw-write'), 'read-write'],
    [name('semaphore'), 'semaphore'],
  ]);
});
