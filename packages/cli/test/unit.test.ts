// The parts that need no server: URLs, globs, key names, arguments, what `watch` reports.
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../src/args.js';
import { CliError } from '../src/errors.js';
import { matchesGlob } from '../src/glob.js';
import { belongsToALock, lockKeys, nameFromDerived } from '../src/keyNames.js';
import type { LockInfo } from '../src/LockInfo.js';
import { parseRedisUrl } from '../src/url.js';
import { lockEvents } from '../src/watchEvents.js';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof CliError ? error.code : 'other';
  }
  return 'none';
};

describe('parseRedisUrl', () => {
  it('reads host, port, credentials, database and TLS', () => {
    expect(parseRedisUrl('rediss://ops:p%40ss@cache.example:6380/2')).toEqual({
      host: 'cache.example',
      port: 6380,
      username: 'ops',
      password: 'p@ss',
      db: 2,
      tls: true,
    });
    expect(parseRedisUrl('redis://[::1]')).toEqual({ host: '::1', port: 6379, db: 0, tls: false });
  });

  it('refuses what is not a redis:// URL', () => {
    for (const url of ['localhost:6379', 'http://host', 'redis://host:99999', 'redis://host/db'])
      expect(
        codeOf(() => parseRedisUrl(url)),
        url,
      ).toBe('bad-url');
  });
});

describe('matchesGlob', () => {
  it('matches as Redis MATCH does', () => {
    expect(matchesGlob('orders:*', 'orders:1')).toBe(true);
    expect(matchesGlob('orders:?', 'orders:12')).toBe(false);
    expect(matchesGlob('job[0-2]', 'job1')).toBe(true);
    expect(matchesGlob('job[^0-2]', 'job1')).toBe(false);
    expect(matchesGlob('a\\*b', 'a*b')).toBe(true);
    expect(matchesGlob('a.b', 'axb')).toBe(false);
  });
});

describe('key names', () => {
  it('derives the keys of a lock with the lock kinds’ own helpers', () => {
    const keys = lockKeys('orders:1');
    expect([keys.holdMarkers, keys.queue, keys.timeouts, keys.token, keys.readHold('c:o', 2)]).toEqual([
      'deadbolt_holds:{orders:1}',
      'redisson_lock_queue:{orders:1}',
      'redisson_lock_timeout:{orders:1}',
      'redisson_lock_token:{orders:1}',
      '{orders:1}:c:o:rwlock_timeout:2',
    ]);
    expect(lockKeys('{tag}x').queue).toBe('redisson_lock_queue:{tag}x');
  });

  it('tells the keys that belong to a lock from locks', () => {
    const belonging = [
      'deadbolt_holds:{a}',
      'deadbolt_request:{a}:h:1',
      'redisson_lock_queue:{a}',
      'redisson_lock_timeout:{a}',
      'redisson_lock_token:{a}',
      '{a}:c:o:rwlock_timeout:1',
    ];
    expect(belonging.filter((key) => !belongsToALock(key))).toEqual([]);
    expect(belongsToALock('orders:1')).toBe(false);
  });

  it('reads the lock name back from a derived key', () => {
    expect(nameFromDerived('redisson_lock_queue', 'redisson_lock_queue:{orders:1}')).toBe('orders:1');
    expect(nameFromDerived('redisson_lock_queue', 'redisson_lock_queue:{tag}x')).toBe('{tag}x');
    expect(nameFromDerived('redisson_lock_queue', 'redisson_lock_queue:plain')).toBeUndefined();
    expect(nameFromDerived('redisson_lock_queue', 'other:{x}')).toBeUndefined();
  });
});

describe('parseCommand', () => {
  it('parses each command with its options and defaults', () => {
    expect(parseCommand(['ls'])).toEqual({ command: 'ls', url: 'redis://127.0.0.1:6379', json: false, pattern: '*' });
    expect(parseCommand(['watch', 'a', '--count', '2', '--url', 'redis://h:1'])).toEqual({
      command: 'watch',
      url: 'redis://h:1',
      json: false,
      name: 'a',
      interval: 500,
      count: 2,
    });
    expect(parseCommand(['unlock', 'a', '--force', '-y', '--json'])).toMatchObject({
      command: 'unlock',
      name: 'a',
      force: true,
      yes: true,
      json: true,
    });
    expect(parseCommand(['--help'])).toEqual({ command: 'help' });
  });

  it('refuses bad command lines as usage errors', () => {
    for (const argv of [
      ['frob'],
      ['show'],
      ['show', 'a', 'b'],
      ['ls', '--nope'],
      ['watch', 'a', '--interval', '0'],
      ['watch', 'a', '--count', 'x'],
    ]) {
      expect(
        codeOf(() => parseCommand(argv)),
        argv.join(' '),
      ).toBe('usage');
    }
  });
});

describe('lockEvents', () => {
  const holder = (ownerId: string, holds = 1, role: 'owner' | 'reader' = 'owner') => ({
    field: `c:${ownerId}`,
    clientId: 'c',
    ownerId,
    role,
    holds,
  });
  const lock = (holders: LockInfo['holders'], waiters: string[] = []): LockInfo => ({
    name: 'a',
    kind: 'fair',
    held: holders.length > 0,
    ttl: 1,
    holders,
    hash: {},
    waiters: waiters.map((ownerId, i) => ({
      field: `c:${ownerId}`,
      clientId: 'c',
      ownerId,
      position: i + 1,
      deadline: null,
    })),
  });

  it('names acquisitions, hand-offs, re-entries, releases, readers and waiters', () => {
    expect(lockEvents(null, lock([holder('a')]))).toEqual(['acquired by c:a']);
    expect(lockEvents(lock([holder('a')], ['b']), lock([holder('b')]))).toEqual([
      'hand-off: c:a -> c:b',
      'waiter c:b left',
    ]);
    expect(lockEvents(lock([holder('a')]), lock([holder('a', 2)], ['w']))).toEqual([
      'holds of c:a: 1 -> 2',
      'waiter c:w joined',
    ]);
    expect(lockEvents(lock([holder('r', 1, 'reader')]), null)).toEqual(['reader c:r left']);
    expect(lockEvents(lock([holder('a')]), null)).toEqual([
      'released by c:a (or its lease ran out, or it was force-unlocked)',
    ]);
  });
});
