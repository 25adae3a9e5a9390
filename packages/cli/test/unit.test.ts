// The parts that need no server: URLs, globs, key names, arguments, help, views, what `watch` reports.
import { nameFromPrefixed } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { COMMANDS, parseCommand } from '../src/args.js';
import type { CommandOption, CommandSyntax } from '../src/commandSyntax.js';
import { CliError, EXIT_CODES } from '../src/errors.js';
import { matchesGlob } from '../src/glob.js';
import { commandHelp, generalHelp } from '../src/help.js';
import { belongsToALock, lockKeys } from '../src/keyNames.js';
import type { LockInfo } from '../src/LockInfo.js';
import { maskUrl, parseRedisUrl } from '../src/url.js';
import { renderLock, renderLockList } from '../src/views.js';
import { describeLockEvent, lockEvents } from '../src/watchEvents.js';

const messageOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return 'no error';
};

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

  it('never shows the password of a URL it refuses', () => {
    for (const url of [
      'http://ops:s3cret@cache.example',
      'redis://ops:s3cret@cache.example:notaport',
      'redis://:s3cret@cache.example/db',
      'redis://ops:s3/cr@t@cache.example:99999',
    ]) {
      const message = messageOf(() => parseRedisUrl(url));
      expect(message, url).toContain(':***@');
      expect(message, url).not.toContain('s3');
    }
    expect(maskUrl('redis://ops@cache.example:6379/2')).toBe('redis://ops@cache.example:6379/2');
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
    expect(nameFromPrefixed('redisson_lock_queue', 'redisson_lock_queue:{orders:1}')).toBe('orders:1');
    expect(nameFromPrefixed('redisson_lock_queue', 'redisson_lock_queue:{tag}x')).toBe('{tag}x');
    expect(nameFromPrefixed('redisson_lock_queue', 'redisson_lock_queue:plain')).toBeUndefined();
    expect(nameFromPrefixed('redisson_lock_queue', 'other:{x}')).toBeUndefined();
  });
});

describe('parseCommand', () => {
  it('parses each command with its options and defaults', () => {
    expect(parseCommand(['ls'])).toEqual({ command: 'ls', connection: { insecure: false }, json: false, pattern: '*' });
    expect(parseCommand(['watch', 'a', '--count', '2', '--url', 'redis://h:1'])).toEqual({
      command: 'watch',
      connection: { url: 'redis://h:1', insecure: false },
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
      dryRun: false,
      json: true,
    });
    expect(parseCommand(['unlock', 'a', '--dry-run'])).toMatchObject({ force: false, dryRun: true });
    expect(parseCommand(['--help'])).toEqual({ command: 'help' });
    for (const argv of [['--version'], ['ls', '--version'], ['--version', 'unlock', 'a']])
      expect(parseCommand(argv), argv.join(' ')).toEqual({ command: 'version' });
    const files = ['--password-file', 'p', '--cacert', 'ca', '--cert', 'c', '--key', 'k', '--insecure'];
    expect(parseCommand(['show', 'a', ...files])).toMatchObject({
      connection: { passwordFile: 'p', cacert: 'ca', cert: 'c', key: 'k', insecure: true },
    });
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

describe('options per command', () => {
  const usageMessage = (argv: string[]) => {
    try {
      parseCommand(argv);
    } catch (error) {
      if (error instanceof CliError && error.code === 'usage') return error.message;
    }
    return 'no usage error';
  };
  const argvWith = (command: CommandSyntax, option: string, config: CommandOption) => [
    command.name,
    'a',
    `--${option}`,
    ...(config.type === 'string' ? ['1'] : []),
  ];

  it("takes each command's own options, and refuses every other command's, naming the option and the command", () => {
    for (const command of COMMANDS) {
      for (const other of COMMANDS) {
        for (const [option, config] of Object.entries(other.options)) {
          const argv = argvWith(command, option, config);
          if (other === command) expect(parseCommand(argv), argv.join(' ')).toMatchObject({ command: command.name });
          else
            expect(usageMessage(argv), argv.join(' ')).toBe(
              `${command.name} does not take --${option}: it is an option of ${other.name} (see deadbolt ${command.name} --help)`,
            );
        }
      }
    }
    expect(usageMessage(['show', 'a', '-y'])).toBe(
      'show does not take -y: it is an option of unlock (see deadbolt show --help)',
    );
    expect(usageMessage(['ls', '--nope'])).toBe(
      'ls does not take --nope: no command takes it (see deadbolt ls --help)',
    );
  });

  it('takes the connection and output options with every command, before or after it', () => {
    expect(parseCommand(['--url', 'redis://h:1', '--json', 'show', 'a'])).toEqual({
      command: 'show',
      connection: { url: 'redis://h:1', insecure: false },
      json: true,
      name: 'a',
    });
    for (const command of COMMANDS)
      expect(parseCommand([command.name, 'a', '--url', 'redis://h:2', '--json', '--insecure'])).toMatchObject({
        connection: { url: 'redis://h:2', insecure: true },
        json: true,
      });
  });

  it("gives one command's help after the command or after help", () => {
    expect(parseCommand(['watch', '--help'])).toEqual({ command: 'help', topic: 'watch' });
    expect(parseCommand(['-h', 'unlock'])).toEqual({ command: 'help', topic: 'unlock' });
    expect(parseCommand(['help', 'ls'])).toEqual({ command: 'help', topic: 'ls' });
    expect(parseCommand(['help'])).toEqual({ command: 'help' });
    expect(usageMessage(['help', 'frob'])).toMatch(/^unknown command "frob"/);
  });

  it('lists in a command’s help its own options and the common ones, and no other', () => {
    const common = [
      '--url <url>',
      '--password-file <file>',
      '--cacert <file>',
      '--cert <file>',
      '--key <file>',
      '--insecure',
      '--json',
      '--version',
      '--help, -h',
    ];
    for (const command of COMMANDS) {
      const help = commandHelp(command);
      expect(help).toMatch(new RegExp(`^Usage: deadbolt ${command.usage.replace(/[[\]]/g, '\\$&')} \\[options\\]\n`));
      const listed = help
        .split('\n')
        .filter((line) => /^ {2}-/.test(line))
        .map((line) => line.trim().split(/ {2,}/)[0]);
      expect(listed).toEqual([...Object.values(command.options).map((option) => option.label), ...common]);
    }
    const general = generalHelp(COMMANDS);
    expect(general).toContain('Options of every command:\n  --url <url>');
    for (const command of COMMANDS) expect(general).toContain(`\n  ${command.usage} `);
  });

  it('names in help the environment variables it reads and what every exit status means', () => {
    for (const help of [generalHelp(COMMANDS), ...COMMANDS.map(commandHelp)]) {
      expect(help).toMatch(/^ {2}REDIS_URL {2,}the server, when --url is not given$/m);
      expect(help).toMatch(/^ {2}DEADBOLT_PASSWORD {2,}the password/m);
      for (const code of new Set([0, ...Object.values(EXIT_CODES)]))
        expect(help).toMatch(new RegExp(`^ {2}${code} {2,}\\S`, 'm'));
    }
  });
});

describe('views', () => {
  const clientId = '6f1c2e0a-93b4-4d8e-a1f7-2c5d9e8b7a10';
  const held: LockInfo = {
    name: 'invoices',
    kind: 'lock',
    held: true,
    ttl: 27_200,
    holders: [{ field: `${clientId}:run-7`, clientId, ownerId: 'run-7', role: 'owner', holds: 1 }],
    hash: { [`${clientId}:run-7`]: '1' },
    waiters: [],
  };

  it('shows client ids whole, however long', () => {
    // The holder column is as wide as its widest cell: the whole id and the hold count.
    const holder = `${clientId}:run-7 x1`;
    expect(renderLockList([held, { ...held, name: 'ledger', holders: [] }]).split('\n')).toEqual([
      `NAME      KIND    TTL  ${'HOLDER'.padEnd(holder.length)}  READERS  WAITERS`,
      `invoices  lock  27.2s  ${holder}  -        -`,
      `ledger    lock  27.2s  ${'-'.padEnd(holder.length)}  -        -`,
    ]);
    expect(renderLock(held, 0)).toContain(`  owner  ${clientId}  run-7         1  the lock TTL`);
    expect(lockEvents(null, held).map(describeLockEvent)).toEqual([`acquired by ${clientId}:run-7`]);
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

  const named = (before: LockInfo | null, after: LockInfo | null) => lockEvents(before, after).map(describeLockEvent);
  const who = (ownerId: string) => ({ field: `c:${ownerId}`, clientId: 'c', ownerId });

  it('tells acquisitions, hand-offs, re-entries, releases, readers and waiters as typed events', () => {
    expect(lockEvents(null, lock([holder('a')]))).toEqual([{ type: 'acquired', holders: [who('a')] }]);
    expect(lockEvents(lock([holder('a')], ['b']), lock([holder('b')]))).toEqual([
      { type: 'handed-off', from: [who('a')], to: [who('b')] },
      { type: 'waiter-left', owner: who('b') },
    ]);
    expect(lockEvents(lock([holder('a')]), lock([holder('a', 2)], ['w']))).toEqual([
      { type: 'holds-changed', holder: who('a'), from: 1, to: 2 },
      { type: 'waiter-joined', owner: who('w') },
    ]);
    expect(lockEvents(lock([holder('r', 1, 'reader')]), null)).toEqual([{ type: 'reader-left', owner: who('r') }]);
    expect(lockEvents({ ...lock([]), mode: 'read' }, { ...lock([]), mode: 'write' })).toEqual([
      { type: 'mode-changed', from: 'read', to: 'write' },
    ]);
  });

  it('names each event in words for a terminal', () => {
    expect(named(null, lock([holder('a')]))).toEqual(['acquired by c:a']);
    expect(named(lock([holder('a')], ['b']), lock([holder('b')]))).toEqual(['hand-off: c:a -> c:b', 'waiter c:b left']);
    expect(named(lock([holder('a')]), lock([holder('a', 2)], ['w']))).toEqual([
      'holds of c:a: 1 -> 2',
      'waiter c:w joined',
    ]);
    expect(named(lock([holder('r', 1, 'reader')]), null)).toEqual(['reader c:r left']);
    expect(named(lock([holder('a')]), null)).toEqual([
      'released by c:a (or its lease ran out, or it was force-unlocked)',
    ]);
    expect(named({ ...lock([]), mode: 'read' }, { ...lock([]), mode: 'write' })).toEqual(['mode: read -> write']);
  });
});
