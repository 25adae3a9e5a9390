// The fair lock's commands without Redis: each command's KEYS, ARGV and reply decoding against
// the header of the .lua script it runs (issue 15).
import { lockCommands } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  COMMAND_NOW,
  commandContext,
  expectScript,
  PUBLISH_COMMANDS,
} from '@deadbolt/conformance/commands';
import { fairAcquire } from '../src/commands/fairAcquire.js';
import { fairForceRelease } from '../src/commands/fairForceRelease.js';
import { queueKeys } from '../src/commands/fairInputs.js';
import { fairLeave } from '../src/commands/fairLeave.js';
import { fairRelease } from '../src/commands/fairRelease.js';
import { fairLockKeys } from '../src/fairLockKeys.js';
import { fairLockKind } from '../src/FairLock.js';
import acquireLua from '../src/lua/acquire.lua?raw';
import forceReleaseLua from '../src/lua/force-release.lua?raw';
import leaveLua from '../src/lua/leave.lua?raw';
import releaseLua from '../src/lua/release.lua?raw';

const WAITER_TIMEOUT = 5_000;

const QUEUE_KEYS = [
  'orders',
  'redisson_lock_queue:{orders}',
  'redisson_lock_timeout:{orders}',
  'redisson_lock__channel:{orders}',
];
const TAGGED_QUEUE_KEYS = [
  'tenant:{7}:orders',
  'redisson_lock_queue:tenant:{7}:orders',
  'redisson_lock_timeout:tenant:{7}:orders',
  'redisson_lock__channel:tenant:{7}:orders',
];

const lock = { keys: fairLockKeys('orders'), waiterTimeout: WAITER_TIMEOUT };
const taggedLock = { keys: fairLockKeys('tenant:{7}:orders'), waiterTimeout: WAITER_TIMEOUT };
const field = 'client-1:owner-7';
const hold = 'inst-1:3';

describe('queueKeys (queue.lua KEYS[1..4])', () => {
  it('is the lock, the queue, the deadlines, the channel', () => {
    expect(queueKeys(lock.keys)).toEqual(QUEUE_KEYS);
    expect(queueKeys(taggedLock.keys)).toEqual(TAGGED_QUEUE_KEYS);
  });
});

describe('fairAcquire (acquire.lua)', () => {
  const input = { ...lock, field, hold, lease: 30_000, allowance: 60_000 };

  it('runs fair-lock/acquire', () => expectScript(fairAcquire, 'fair-lock/acquire', acquireLua, input));

  it("KEYS: the queue keys, the hold markers, the attempt's request record", () => {
    expect(fairAcquire.keys(input)).toEqual([
      ...QUEUE_KEYS,
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
    ]);
    expect(fairAcquire.keys({ ...input, ...taggedLock })).toEqual([
      ...TAGGED_QUEUE_KEYS,
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: lease, field, allowance, now, waiterTimeout, publish, message 0, hold id, deadline',
    (publish) => {
      expect(fairAcquire.args(input, commandContext(publish))).toEqual([
        30_000,
        field,
        60_000,
        COMMAND_NOW,
        WAITER_TIMEOUT,
        publish,
        0,
        hold,
        COMMAND_DEADLINE,
      ]);
    },
  );

  it('ARGV of a no-wait attempt: allowance 0', () => {
    expect(fairAcquire.args({ ...input, allowance: 0 }, commandContext('publish'))[2]).toBe(0);
  });

  it.each([
    [null, { status: 'taken', grant: null }],
    [250, { status: 'heldByOther', ttl: 250 }],
    // A no-wait attempt: no expiry, or free while others queue first.
    [-1, { status: 'heldByOther', ttl: Infinity }],
    [0, { status: 'heldByOther', ttl: 0 }],
  ])('decodes %j', (reply, decoded) => expect(fairAcquire.decode(reply)).toEqual(decoded));
});

describe('fairRelease (release.lua)', () => {
  const input = { ...lock, field, hold };

  it('runs fair-lock/release', () => expectScript(fairRelease, 'fair-lock/release', releaseLua, input));

  it("KEYS: the queue keys, the hold markers, the acquisition's request record", () => {
    expect(fairRelease.keys(input)).toEqual([
      ...QUEUE_KEYS,
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
    ]);
    expect(fairRelease.keys({ ...input, ...taggedLock })).toEqual([
      ...TAGGED_QUEUE_KEYS,
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: message 0, hold id, field, publish, record TTL, now, waiterTimeout',
    (publish) => {
      expect(fairRelease.args(input, commandContext(publish))).toEqual([
        0,
        hold,
        field,
        publish,
        COMMAND_LATCH_TTL,
        COMMAND_NOW,
        WAITER_TIMEOUT,
      ]);
    },
  );

  it.each([
    [null, 'notHeld'],
    [0, 'stillHeld'],
    [1, 'freed'],
  ])('decodes %j as %s', (reply, decoded) => expect(fairRelease.decode(reply)).toBe(decoded));
});

describe('fairForceRelease (force-release.lua)', () => {
  const force = { ...lock, request: 'inst-1:9', holders: {} };
  const seen = { ...force, holders: { [field]: '2', 'client-2:owner-1': '1' } };

  it('runs fair-lock/force-release', () =>
    expectScript(fairForceRelease, 'fair-lock/force-release', forceReleaseLua, force));

  it("KEYS: the queue keys, the hold markers, the request's record", () => {
    expect(fairForceRelease.keys(force)).toEqual([
      ...QUEUE_KEYS,
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:9',
    ]);
    expect(fairForceRelease.keys({ ...force, ...taggedLock })).toEqual([
      ...TAGGED_QUEUE_KEYS,
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:9',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: message 0, publish, now, waiterTimeout, deadline, record TTL, then the hash as read',
    (publish) => {
      expect(fairForceRelease.args(seen, commandContext(publish))).toEqual([
        0,
        publish,
        COMMAND_NOW,
        WAITER_TIMEOUT,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
        field,
        '2',
        'client-2:owner-1',
        '1',
      ]);
    },
  );

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(fairForceRelease.decode(reply)).toBe(decoded));
});

describe('fairLeave (leave.lua)', () => {
  const input = { ...lock, field, allowance: 60_000, request: 'inst-1:5' };

  it('runs fair-lock/leave', () => expectScript(fairLeave, 'fair-lock/leave', leaveLua, input));

  it("KEYS: the queue keys, the request's record", () => {
    expect(fairLeave.keys(input)).toEqual([...QUEUE_KEYS, 'deadbolt_request:{orders}:inst-1:5']);
    expect(fairLeave.keys({ ...input, ...taggedLock })).toEqual([
      ...TAGGED_QUEUE_KEYS,
      'deadbolt_request:tenant:{7}:orders:inst-1:5',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: field, allowance, now, waiterTimeout, publish, message 0, deadline, record TTL',
    (publish) => {
      expect(fairLeave.args(input, commandContext(publish))).toEqual([
        field,
        60_000,
        COMMAND_NOW,
        WAITER_TIMEOUT,
        publish,
        0,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
    },
  );

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(fairLeave.decode(reply)).toBe(decoded));
});

describe('fairLockKind', () => {
  const kind = fairLockKind(lock.keys, WAITER_TIMEOUT);
  const holders = { [field]: '1' };

  it('force-releases with its own script, by the request and the hash as read', () => {
    const force = kind.forceRelease({ request: 'inst-1:9', holders });
    expect([force.script, force.keys]).toEqual([
      fairForceRelease.script,
      fairForceRelease.keys({ ...lock, request: 'inst-1:9', holders }),
    ]);
    expect(force.args(commandContext('publish'))).toEqual([
      0,
      'publish',
      COMMAND_NOW,
      WAITER_TIMEOUT,
      COMMAND_DEADLINE,
      COMMAND_LATCH_TTL,
      field,
      '1',
    ]);
  });

  it("names each leave's record by the leave's own request id", () => {
    const wait = { field, lease: 30_000, waitTime: 60_000 };
    const [first, second] = [kind.leave?.(wait, 'inst-1:1'), kind.leave?.(wait, 'inst-1:2')];
    expect(first?.keys).toEqual([...QUEUE_KEYS, 'deadbolt_request:{orders}:inst-1:1']);
    expect(second?.keys).toEqual([...QUEUE_KEYS, 'deadbolt_request:{orders}:inst-1:2']);
  });

  it("extends with the plain lock's command, by the extend's request", () => {
    const extend = kind.extend(field, hold, 10_000, 'inst-1:12');
    expect([extend.script, extend.keys]).toEqual([
      lockCommands.extend.script,
      lockCommands.extend.keys({ name: 'orders', field, hold, lease: 10_000, request: 'inst-1:12' }),
    ]);
    expect(extend.args(commandContext('publish'))).toEqual([10_000, field, hold, 12, COMMAND_DEADLINE]);
  });
});
