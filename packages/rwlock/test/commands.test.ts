// The read-write lock's commands without Redis: each command's KEYS, ARGV and reply decoding
// against the header of the .lua script it runs (issue 15).
import { HANDOFF_RELEASED, type ScriptArgument } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  commandContext,
  expectScript,
  scriptBody,
  PUBLISH_COMMANDS,
} from '@deadbolt/conformance/commands';
import { readAcquire } from '../src/commands/readAcquire.js';
import { readWriteForceRelease } from '../src/commands/readWriteForceRelease.js';
import { READ_UNLOCK_MESSAGE } from '../src/commands/readWriteMessages.js';
import { readRelease, writeRelease } from '../src/commands/readWriteRelease.js';
import { readExtend, readWriteRenew } from '../src/commands/readWriteRenew.js';
import { readWriteState } from '../src/commands/readWriteState.js';
import { writeAcquire } from '../src/commands/writeAcquire.js';
import { writeExtend } from '../src/commands/writeExtend.js';
import { writeHandOff } from '../src/commands/writeHandOff.js';
import { rwlockScripts } from '../src/rwlockScripts.js';
import forceReleaseLua from '../src/lua/force-release.lua?raw';
import readAcquireLua from '../src/lua/read-acquire.lua?raw';
import readReleaseLua from '../src/lua/read-release.lua?raw';
import renewLua from '../src/lua/renew.lua?raw';
import stateLua from '../src/lua/state.lua?raw';
import writeAcquireLua from '../src/lua/write-acquire.lua?raw';
import writeExtendLua from '../src/lua/write-extend.lua?raw';
import writeHandOffLua from '../src/lua/write-handoff.lua?raw';
import writeReleaseLua from '../src/lua/write-release.lua?raw';

const context = commandContext;
const DEADLINE = COMMAND_DEADLINE;

const NAME = 'orders';
const TAGGED = 'tenant:{7}:orders';
const reader = 'client-1:owner-7';
const writer = 'client-1:owner-7:write';
const hold = 'inst-1:3';

describe('readAcquire (read-acquire.lua)', () => {
  const input = { name: NAME, field: reader, writerField: writer, hold, lease: 30_000 };

  it('runs rwlock/read-acquire', () => expectScript(readAcquire, 'rwlock/read-acquire', readAcquireLua, input));

  it("KEYS: the lock, its hold markers, the attempt's request record", () => {
    expect(readAcquire.keys(input)).toEqual([
      'orders',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
    ]);
    expect(readAcquire.keys({ ...input, name: TAGGED })).toEqual([
      TAGGED,
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
    ]);
  });

  it('ARGV: lease, reader field, writer field, hold id, deadline', () => {
    expect(readAcquire.args(input, context('spublish'))).toEqual([30_000, reader, writer, hold, DEADLINE]);
  });

  it.each([
    [null, { status: 'taken', grant: null }],
    [1_500, { status: 'heldByOther', ttl: 1_500 }],
    [-1, { status: 'heldByOther', ttl: Infinity }],
  ])('decodes %j', (reply, decoded) => expect(readAcquire.decode(reply)).toEqual(decoded));
});

describe('writeAcquire (write-acquire.lua)', () => {
  const input = { name: NAME, field: writer, readerField: reader, hold, lease: 30_000 };

  it('runs rwlock/write-acquire', () => expectScript(writeAcquire, 'rwlock/write-acquire', writeAcquireLua, input));

  it("KEYS: the lock, its hold markers, the attempt's request record", () => {
    expect(writeAcquire.keys(input)).toEqual([
      'orders',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
    ]);
    expect(writeAcquire.keys({ ...input, name: TAGGED })).toEqual([
      TAGGED,
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
    ]);
  });

  it('ARGV: lease, writer field, reader field, hold id, deadline', () => {
    expect(writeAcquire.args(input, context('publish'))).toEqual([30_000, writer, reader, hold, DEADLINE]);
  });

  it.each([
    [null, { status: 'taken', grant: null }],
    [-3, { status: 'refused' }],
    [1_500, { status: 'heldByOther', ttl: 1_500 }],
    [-1, { status: 'heldByOther', ttl: Infinity }],
  ])('decodes %j', (reply, decoded) => expect(writeAcquire.decode(reply)).toEqual(decoded));
});

describe('readRelease (read-release.lua) and writeRelease (write-release.lua)', () => {
  const releases = [
    {
      label: 'readRelease',
      command: readRelease,
      script: 'rwlock/read-release',
      lua: readReleaseLua,
      field: reader,
      message: 0,
    },
    {
      label: 'writeRelease',
      command: writeRelease,
      script: 'rwlock/write-release',
      lua: writeReleaseLua,
      field: writer,
      message: READ_UNLOCK_MESSAGE,
    },
  ];

  it.each(releases)('$label runs $script', ({ command, script, lua, field }) =>
    expectScript(command, script, lua, { name: NAME, field, hold }),
  );

  it.each(releases)(
    "$label KEYS: the lock, its channel, the acquisition's request record, its hold markers",
    ({ command, field }) => {
      expect(command.keys({ name: NAME, field, hold })).toEqual([
        'orders',
        'redisson_rwlock:{orders}',
        'deadbolt_request:{orders}:inst-1:3',
        'deadbolt_holds:{orders}',
      ]);
      expect(command.keys({ name: TAGGED, field, hold })).toEqual([
        TAGGED,
        'redisson_rwlock:tenant:{7}:orders',
        'deadbolt_request:tenant:{7}:orders:inst-1:3',
        'deadbolt_holds:tenant:{7}:orders',
      ]);
    },
  );

  it.each(releases.flatMap((release) => PUBLISH_COMMANDS.map((publish) => ({ ...release, publish }))))(
    '$label ARGV with $publish: message $message, hold id, field, publish, record TTL',
    ({ command, field, message, publish }) => {
      expect(command.args({ name: NAME, field, hold }, context(publish))).toEqual([
        message,
        hold,
        field,
        publish,
        COMMAND_LATCH_TTL,
      ]);
    },
  );

  it('readRelease frees with UNLOCK_MESSAGE 0, writeRelease with READ_UNLOCK_MESSAGE 1', () => {
    expect(readRelease.args({ name: NAME, field: reader, hold }, context('publish'))[0]).toBe(0);
    expect(writeRelease.args({ name: NAME, field: writer, hold }, context('publish'))[0]).toBe(1);
  });

  it.each(
    releases.flatMap(({ label, command }) =>
      [
        { reply: null, decoded: 'notHeld' },
        { reply: 0, decoded: 'stillHeld' },
        { reply: 1, decoded: 'freed' },
      ].map((reply) => ({ label, command, ...reply })),
    ),
  )('$label decodes $reply as $decoded', ({ command, reply, decoded }) => expect(command.decode(reply)).toBe(decoded));
});

describe('writeHandOff (write-handoff.lua)', () => {
  // Owner fields in, as every kind's hand-off takes them; the script gets writer fields.
  const input = {
    name: NAME,
    from: { field: reader, hold },
    to: { field: 'client-1:owner-8', hold: 'inst-1:4' },
    lease: 5_000,
  };

  it('runs rwlock/write-handoff', () => expectScript(writeHandOff, 'rwlock/write-handoff', writeHandOffLua, input));

  it("KEYS: the lock, its channel, the releasing hold's request record, its hold markers, the receiver's request record", () => {
    expect(writeHandOff.keys(input)).toEqual([
      'orders',
      'redisson_rwlock:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:4',
    ]);
    expect(writeHandOff.keys({ ...input, name: TAGGED })).toEqual([
      TAGGED,
      'redisson_rwlock:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:4',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: as writeRelease's (message 1, hold id, writer field, publish, record TTL), then the receiver's writer field, hold id and lease, and the deadline",
    (publish) => {
      expect(writeHandOff.args(input, context(publish))).toEqual([
        READ_UNLOCK_MESSAGE,
        hold,
        writer,
        publish,
        COMMAND_LATCH_TTL,
        'client-1:owner-8:write',
        'inst-1:4',
        5_000,
        DEADLINE,
      ]);
    },
  );

  it.each([
    [null, { status: 'notHeld' }],
    [0, { status: 'stillHeld' }],
    [1, { status: 'passed', grant: null }],
    [HANDOFF_RELEASED, { status: 'released' }],
  ])('decodes %j as %j', (reply, decoded) => expect(writeHandOff.decode(reply)).toEqual(decoded));
});

describe('readWriteForceRelease (force-release.lua)', () => {
  // The hash as the operator was shown it: a reader with two holds.
  const holders = { mode: 'read', [reader]: '2' };
  const input = { name: NAME, mode: 'read', request: 'inst-1:9', holders } as const;

  // The header declares ARGV up to the mode's fields; the hash as read follows them.
  it('runs rwlock/force-release', () =>
    expectScript(readWriteForceRelease, 'rwlock/force-release', forceReleaseLua, { ...input, holders: {} }));

  it("KEYS: the lock, its channel, its hold markers, this request's record", () => {
    expect(readWriteForceRelease.keys({ ...input, mode: 'write' })).toEqual([
      'orders',
      'redisson_rwlock:{orders}',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:9',
    ]);
    expect(readWriteForceRelease.keys({ ...input, name: TAGGED })).toEqual([
      TAGGED,
      'redisson_rwlock:tenant:{7}:orders',
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:9',
    ]);
  });

  it.each(
    PUBLISH_COMMANDS.flatMap(
      (publish) =>
        [
          ['read', 0, publish],
          ['write', 1, publish],
        ] as const,
    ),
  )(
    'ARGV for mode %s: the mode, message %i (read wakes one, write wakes all), %s, the deadline, the record TTL, the hash as read',
    (mode, message, publish) => {
      expect(readWriteForceRelease.args({ ...input, mode }, context(publish))).toEqual([
        mode,
        message,
        publish,
        DEADLINE,
        COMMAND_LATCH_TTL,
        'mode',
        'read',
        reader,
        '2',
      ]);
    },
  );

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(readWriteForceRelease.decode(reply)).toBe(decoded));
});

describe('writeExtend (write-extend.lua)', () => {
  const input = { name: NAME, field: writer, hold, lease: 5_000, request: 'inst-1:12' };

  it('runs rwlock/write-extend', () => expectScript(writeExtend, 'rwlock/write-extend', writeExtendLua, input));

  it("KEYS: the lock, its hold markers; ARGV: new lease, writer field, hold id, the extend's request number, deadline", () => {
    expect(writeExtend.keys(input)).toEqual(['orders', 'deadbolt_holds:{orders}']);
    expect(writeExtend.keys({ ...input, name: TAGGED })).toEqual([TAGGED, 'deadbolt_holds:tenant:{7}:orders']);
    expect(writeExtend.args(input, context('spublish'))).toEqual([5_000, writer, hold, 12, DEADLINE]);
  });

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(writeExtend.decode(reply)).toBe(decoded));
});

describe('readWriteRenew and readExtend (renew.lua)', () => {
  const batch = {
    lease: 30_000,
    holds: [
      { name: NAME, field: writer, hold: 'inst-1:3' },
      { name: NAME, field: reader, hold: 'inst-1:4' },
      { name: '{orders}:other', field: reader, hold: 'inst-1:5' },
    ],
  };

  it('both run rwlock/renew', () => {
    expect(readWriteRenew.script.name).toBe('rwlock/renew');
    expect(readWriteRenew.script.source.endsWith(scriptBody(renewLua))).toBe(true);
    expect(readExtend.script).toBe(readWriteRenew.script);
  });

  it('renew KEYS[i]: the lock of hold i; ARGV: lease, deadline, then field and hold id per key', () => {
    expect(readWriteRenew.keys(batch)).toEqual(['orders', 'orders', '{orders}:other']);
    const expected: ScriptArgument[] = [30_000, DEADLINE, writer, 'inst-1:3', reader, 'inst-1:4', reader, 'inst-1:5'];
    expect(readWriteRenew.args(batch, context('publish'))).toEqual(expected);
    expect(readWriteRenew.decode([1, 0, 1])).toEqual([true, false, true]);
  });

  it('readExtend is a batch of one: KEYS the lock, ARGV lease, deadline, reader field, hold id', () => {
    const input = { name: TAGGED, field: reader, hold, lease: 5_000 };
    expect(readExtend.keys(input)).toEqual([TAGGED]);
    expect(readExtend.args(input, context('spublish'))).toEqual([5_000, DEADLINE, reader, hold]);
  });

  it.each([
    [[1], true],
    [[0], false],
  ])('readExtend decodes %j as %s', (reply, decoded) => expect(readExtend.decode(reply)).toBe(decoded));
});

describe('readWriteState (state.lua)', () => {
  const input = { name: NAME, field: reader, mode: 'read' } as const;

  it('runs rwlock/state', () => expectScript(readWriteState, 'rwlock/state', stateLua, input));

  it('KEYS: the lock; ARGV: the field (or none), the asking lock', () => {
    expect(readWriteState.keys({ ...input, name: TAGGED })).toEqual([TAGGED]);
    expect(readWriteState.args(input, context('publish'))).toEqual([reader, 'read']);
    expect(readWriteState.args({ name: NAME, field: '', mode: 'write' }, context('publish'))).toEqual(['', 'write']);
  });

  it.each([
    [[-2, 0], { ttl: null, holds: 0 }],
    [[-1, 2], { ttl: Infinity, holds: 2 }],
    [[9_000, 1], { ttl: 9_000, holds: 1 }],
  ])('decodes %j', (reply, decoded) => expect(readWriteState.decode(reply)).toEqual(decoded));
});

describe('script composition', () => {
  // Core's fragments carry the fragments they are written over: each function is defined once.
  it.each(Object.values(rwlockScripts).map((script) => [script.name, script.source] as const))(
    '%s defines each Lua function once',
    (_name, source) => {
      const defined = [...source.matchAll(/^local function (\w+)/gm)].map((match) => match[1]);
      expect(defined.filter((name, i) => defined.indexOf(name) !== i)).toEqual([]);
    },
  );
});
