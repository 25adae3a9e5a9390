// The permit-expirable semaphore's commands without Redis: each command's KEYS, ARGV and reply
// decoding against the header of the .lua script it runs (issue 18), and the fragments each
// script runs after (issue 30).
import {
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  COMMAND_NOW,
  commandContext,
  expectScript,
  scriptBody,
  PUBLISH_COMMANDS,
} from '@deadbolt/conformance/commands';
import { coreLua } from '@deadbolt/core/kit';
import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { expirableAddPermitsCommand } from '../src/commands/expirableAddPermits.js';
import { expirableAvailablePermitsCommand } from '../src/commands/expirableAvailablePermits.js';
import { expirableReleaseCommand } from '../src/commands/expirableRelease.js';
import { expirableRenewCommand } from '../src/commands/expirableRenew.js';
import { expirableTryAcquireCommand } from '../src/commands/expirableTryAcquire.js';
import { expirableUpdateLeaseCommand } from '../src/commands/expirableUpdateLease.js';
import addPermitsLua from '../src/lua/expirable-add-permits.lua?raw';
import availableLua from '../src/lua/expirable-available-permits.lua?raw';
import sharedLua from '../src/lua/expirable-permits.lua?raw';
import releaseLua from '../src/lua/expirable-release.lua?raw';
import renewLua from '../src/lua/expirable-renew.lua?raw';
import tryAcquireLua from '../src/lua/expirable-try-acquire.lua?raw';
import updateLeaseLua from '../src/lua/expirable-update-lease.lua?raw';

const ids = ['00ff', 'a1b2c3'];
const EXPIRABLE_KEYS = ['encoders', '{encoders}:timeout', 'redisson_sc:{encoders}'];
const TAGGED = 'tenant:{7}:encoders';
const oneSlot = (keys: readonly string[]) => expect(new Set(keys.map(hashSlot)).size).toBe(1);

describe('expirableTryAcquireCommand (expirable-try-acquire.lua)', () => {
  const input = { name: 'encoders', ids, lease: 5_000, hold: 'x:3' };

  it('runs semaphore/expirable-try-acquire after the shared fragment and the request deadline', () => {
    expectScript(expirableTryAcquireCommand, 'semaphore/expirable-try-acquire', tryAcquireLua, input);
    expect(expirableTryAcquireCommand.script.source).toBe(
      `${sharedLua}\n${coreLua.requestDeadline}\n${scriptBody(tryAcquireLua)}`,
    );
  });

  it("KEYS: the free permits, {name}:timeout, the channel, the attempt's record, in one slot", () => {
    expect(expirableTryAcquireCommand.keys(input)).toEqual([...EXPIRABLE_KEYS, 'deadbolt_request:{encoders}:x:3']);
    const tagged = expirableTryAcquireCommand.keys({ ...input, name: TAGGED });
    expect(tagged).toEqual([
      TAGGED,
      `${TAGGED}:timeout`,
      `redisson_sc:${scriptBody(TAGGED)}`,
      `deadbolt_request:${TAGGED}:x:3`,
    ]);
    oneSlot(tagged);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: now, the publish command, the ids, the lease, the deadline', (publish) => {
    expect(expirableTryAcquireCommand.args(input, commandContext(publish))).toEqual([
      COMMAND_NOW,
      publish,
      ids.join(' '),
      5_000,
      COMMAND_DEADLINE,
    ]);
  });
});

describe('expirableUpdateLeaseCommand (expirable-update-lease.lua)', () => {
  const input = { name: 'encoders', ids, lease: 800, hold: 'x:3', request: 'x:12' };

  it('runs semaphore/expirable-update-lease after the shared fragment and the request deadline', () => {
    expectScript(expirableUpdateLeaseCommand, 'semaphore/expirable-update-lease', updateLeaseLua, input);
    expect(expirableUpdateLeaseCommand.script.source).toBe(
      `${sharedLua}\n${coreLua.requestDeadline}\n${scriptBody(updateLeaseLua)}`,
    );
  });

  it("KEYS: the free permits, {name}:timeout, the channel, the hold's lease record, in one slot", () => {
    expect(expirableUpdateLeaseCommand.keys(input)).toEqual([
      ...EXPIRABLE_KEYS,
      'deadbolt_request:{encoders}:x:3:lease',
    ]);
    oneSlot(expirableUpdateLeaseCommand.keys({ ...input, name: TAGGED }));
  });

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: now, the publish command, the ids, the lease, the update's number, its deadline, the record's life",
    (publish) => {
      expect(expirableUpdateLeaseCommand.args(input, commandContext(publish))).toEqual([
        COMMAND_NOW,
        publish,
        ids.join(' '),
        800,
        12,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
    },
  );
});

describe('expirableAvailablePermitsCommand (expirable-available-permits.lua)', () => {
  it('runs semaphore/expirable-available-permits after the shared fragment', () => {
    expectScript(expirableAvailablePermitsCommand, 'semaphore/expirable-available-permits', availableLua, {
      name: 'encoders',
    });
    expect(expirableAvailablePermitsCommand.script.source).toBe(`${sharedLua}\n${scriptBody(availableLua)}`);
  });

  it.each(PUBLISH_COMMANDS)(
    'KEYS: the free permits, {name}:timeout, the channel; ARGV with %s: now, the publish command',
    (publish) => {
      expect(expirableAvailablePermitsCommand.keys({ name: 'encoders' })).toEqual(EXPIRABLE_KEYS);
      expect(expirableAvailablePermitsCommand.args({ name: 'encoders' }, commandContext(publish))).toEqual([
        COMMAND_NOW,
        publish,
      ]);
    },
  );
});

describe('expirableReleaseCommand (expirable-release.lua)', () => {
  const input = { name: 'encoders', ids, request: 'x:7' };

  it('runs semaphore/expirable-release after the shared fragment and release-once', () => {
    expectScript(expirableReleaseCommand, 'semaphore/expirable-release', releaseLua, input);
    expect(expirableReleaseCommand.script.source).toBe(
      `${sharedLua}\n${coreLua.releaseOnce}\n${scriptBody(releaseLua)}`,
    );
  });

  it("KEYS: the free permits, {name}:timeout, the channel, the request's record, in one slot", () => {
    expect(expirableReleaseCommand.keys(input)).toEqual([...EXPIRABLE_KEYS, 'deadbolt_request:{encoders}:x:7']);
    oneSlot(expirableReleaseCommand.keys({ ...input, name: TAGGED }));
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: now, the publish command, the ids, how long the record keeps the outcome',
    (publish) => {
      expect(expirableReleaseCommand.args(input, commandContext(publish))).toEqual([
        COMMAND_NOW,
        publish,
        ids.join(' '),
        COMMAND_LATCH_TTL,
      ]);
    },
  );
});

describe('expirableAddPermitsCommand (expirable-add-permits.lua)', () => {
  const input = { name: 'encoders', permits: -2, request: 'x:7' };

  it('runs semaphore/expirable-add-permits after the request deadline', () => {
    expectScript(expirableAddPermitsCommand, 'semaphore/expirable-add-permits', addPermitsLua, input);
    expect(expirableAddPermitsCommand.script.source).toBe(`${coreLua.requestDeadline}\n${scriptBody(addPermitsLua)}`);
  });

  it.each(PUBLISH_COMMANDS)(
    "KEYS: the free permits, the channel, the request's record; ARGV with %s: the permits, the publish command, the deadline, the record's life past it",
    (publish) => {
      expect(expirableAddPermitsCommand.keys(input)).toEqual([
        'encoders',
        'redisson_sc:{encoders}',
        'deadbolt_request:{encoders}:x:7',
      ]);
      oneSlot(expirableAddPermitsCommand.keys({ ...input, name: TAGGED }));
      expect(expirableAddPermitsCommand.args(input, commandContext(publish))).toEqual([
        -2,
        publish,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
    },
  );
});

describe('decoding', () => {
  it('tryAcquire: {1} taken; {0, score} the earliest lease end; {0} nothing expires', () => {
    expect(expirableTryAcquireCommand.decode([1])).toEqual({ taken: true });
    expect(expirableTryAcquireCommand.decode([0, '1700000012345'])).toEqual({
      taken: false,
      expiresAt: 1_700_000_012_345,
    });
    expect(expirableTryAcquireCommand.decode([0])).toEqual({ taken: false, expiresAt: undefined });
  });

  it('release replies how many ids were held (nil: none); updateLease 1 or 0; availablePermits and addPermits the free count', () => {
    expect(expirableReleaseCommand.decode(2)).toBe(2);
    expect(expirableReleaseCommand.decode(null)).toBe(0);
    expect(expirableUpdateLeaseCommand.decode(1)).toBe(true);
    expect(expirableUpdateLeaseCommand.decode(0)).toBe(false);
    expect(expirableAvailablePermitsCommand.decode('3')).toBe(3);
    expect(expirableAvailablePermitsCommand.decode(0)).toBe(0);
    expect(expirableAddPermitsCommand.decode(-1)).toBe(-1);
  });
});

describe('expirableRenewCommand (expirable-renew.lua)', () => {
  const holds = [
    { name: 'encoders', field: 'aa bb', hold: 'x:1' },
    { name: 'encoders', field: 'cc', hold: 'x:2' },
  ];

  it('runs semaphore/expirable-renew after the shared fragment and the request deadline', () => {
    expect(expirableRenewCommand.script.name).toBe('semaphore/expirable-renew');
    expect(expirableRenewCommand.script.source).toBe(
      `${sharedLua}\n${coreLua.requestDeadline}\n${scriptBody(renewLua)}`,
    );
  });

  it("KEYS: each hold's {name}:timeout and lease record; ARGV: the lease, now, the deadline, each hold's ids", () => {
    expect(expirableRenewCommand.keys({ lease: 30_000, holds })).toEqual([
      '{encoders}:timeout',
      'deadbolt_request:{encoders}:x:1:lease',
      '{encoders}:timeout',
      'deadbolt_request:{encoders}:x:2:lease',
    ]);
    oneSlot(expirableRenewCommand.keys({ lease: 30_000, holds: holds.map((hold) => ({ ...hold, name: TAGGED })) }));
    expect(expirableRenewCommand.args({ lease: 30_000, holds }, commandContext('publish'))).toEqual([
      30_000,
      COMMAND_NOW,
      COMMAND_DEADLINE,
      'aa bb',
      'cc',
    ]);
  });

  it('decodes 1 as renewed and 0 as gone, per hold', () => {
    expect(expirableRenewCommand.decode([1, 0])).toEqual([true, false]);
    expect(expirableRenewCommand.decode(null)).toEqual([]);
  });
});
