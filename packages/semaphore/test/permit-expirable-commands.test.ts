// The permit-expirable semaphore's commands without Redis: each command's KEYS, ARGV and reply
// decoding against the header of the .lua script it runs (issue 18).
import { COMMAND_LATCH_TTL, COMMAND_NOW, commandContext, expectScript, PUBLISH_COMMANDS } from '@deadbolt/conformance/commands';
import { coreLua, hashSlot, type Command } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { expirableAvailablePermitsCommand } from '../src/commands/expirableAvailablePermits.js';
import type { LeasedPermitsInput } from '../src/commands/expirableInputs.js';
import { expirableReleaseCommand } from '../src/commands/expirableRelease.js';
import { expirableRenewCommand } from '../src/commands/expirableRenew.js';
import { expirableTryAcquireCommand } from '../src/commands/expirableTryAcquire.js';
import { expirableUpdateLeaseCommand } from '../src/commands/expirableUpdateLease.js';
import availableLua from '../src/lua/expirable-available-permits.lua';
import sharedLua from '../src/lua/expirable-permits.lua';
import releaseLua from '../src/lua/expirable-release.lua';
import renewLua from '../src/lua/expirable-renew.lua';
import tryAcquireLua from '../src/lua/expirable-try-acquire.lua';
import updateLeaseLua from '../src/lua/expirable-update-lease.lua';

const ids = ['00ff', 'a1b2c3'];
const leased = { name: 'encoders', ids, lease: 5_000 };

describe.each([
  ['expirableTryAcquireCommand', expirableTryAcquireCommand, 'try-acquire', tryAcquireLua, [ids.join(' '), 5_000]],
  ['expirableUpdateLeaseCommand', expirableUpdateLeaseCommand, 'update-lease', updateLeaseLua, [ids.join(' '), 5_000]],
  ['expirableAvailablePermitsCommand', expirableAvailablePermitsCommand, 'available-permits', availableLua, []],
] as const)('%s', (_, command: Command<LeasedPermitsInput, unknown>, script, lua, rest) => {
  // Every one of these commands takes what it needs of this input (the name, the ids, the lease).
  const input = leased;
  it(`runs semaphore/expirable-${script}, after the shared fragment`, () => {
    expectScript(command, `semaphore/expirable-${script}`, lua, input);
    expect(command.script.source.startsWith(sharedLua)).toBe(true);
  });

  it('KEYS: the free permits, the held permits {name}:timeout, the channel redisson_sc:{name}, in one slot', () => {
    expect(command.keys(input)).toEqual(['encoders', '{encoders}:timeout', 'redisson_sc:{encoders}']);
    const tagged = command.keys({ ...input, name: 'tenant:{7}:encoders' });
    expect(tagged).toEqual(['tenant:{7}:encoders', 'tenant:{7}:encoders:timeout', 'redisson_sc:tenant:{7}:encoders']);
    expect(new Set(tagged.map(hashSlot)).size).toBe(1);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: now, the publish command, then the ids and lease', (publish) => {
    expect(command.args(input, commandContext(publish))).toEqual([COMMAND_NOW, publish, ...rest]);
  });
});

describe('expirableReleaseCommand (expirable-release.lua)', () => {
  const input = { name: 'encoders', ids, request: 'x:7' };

  it("runs semaphore/expirable-release, after the shared fragment and core's unlock latch", () => {
    expect(expirableReleaseCommand.script.name).toBe('semaphore/expirable-release');
    expect(expirableReleaseCommand.script.source).toBe(`${sharedLua}\n${coreLua.unlockLatch}\n${releaseLua}`);
  });

  it("KEYS: the free permits, {name}:timeout, the channel, the request's latch, in one slot", () => {
    expect(expirableReleaseCommand.keys(input)).toEqual(['encoders', '{encoders}:timeout', 'redisson_sc:{encoders}', 'redisson_unlock_latch:{encoders}:x:7']);
    const tagged = expirableReleaseCommand.keys({ ...input, name: 'tenant:{7}:encoders' });
    expect(new Set(tagged.map(hashSlot)).size).toBe(1);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: now, the publish command, the ids, how long the latch remembers', (publish) => {
    expect(expirableReleaseCommand.args(input, commandContext(publish))).toEqual([COMMAND_NOW, publish, ids.join(' '), COMMAND_LATCH_TTL]);
  });
});

describe('decoding', () => {
  it('tryAcquire: {1} taken; {0, score} the earliest lease end; {0} nothing expires', () => {
    expect(expirableTryAcquireCommand.decode([1])).toEqual({ taken: true });
    expect(expirableTryAcquireCommand.decode([0, '1700000012345'])).toEqual({ taken: false, expiresAt: 1_700_000_012_345 });
    expect(expirableTryAcquireCommand.decode([0])).toEqual({ taken: false, expiresAt: undefined });
  });

  it('release replies how many ids were held; updateLease 1 or 0; availablePermits the stored string', () => {
    expect(expirableReleaseCommand.decode(2)).toBe(2);
    expect(expirableReleaseCommand.decode(0)).toBe(0);
    expect(expirableUpdateLeaseCommand.decode(1)).toBe(true);
    expect(expirableUpdateLeaseCommand.decode(0)).toBe(false);
    expect(expirableAvailablePermitsCommand.decode('3')).toBe(3);
    expect(expirableAvailablePermitsCommand.decode(0)).toBe(0);
  });
});

describe('expirableRenewCommand (expirable-renew.lua)', () => {
  const holds = [
    { name: 'encoders', field: 'aa bb', hold: 'x:1' },
    { name: 'encoders', field: 'cc', hold: 'x:2' },
  ];

  it('runs semaphore/expirable-renew, after the shared fragment', () => {
    expect(expirableRenewCommand.script.name).toBe('semaphore/expirable-renew');
    expect(expirableRenewCommand.script.source).toBe(`${sharedLua}\n${renewLua}`);
  });

  it("KEYS: each hold's {name}:timeout; ARGV: the lease, now, each hold's ids", () => {
    expect(expirableRenewCommand.keys({ lease: 30_000, holds })).toEqual(['{encoders}:timeout', '{encoders}:timeout']);
    expect(expirableRenewCommand.args({ lease: 30_000, holds }, commandContext('publish'))).toEqual([30_000, COMMAND_NOW, 'aa bb', 'cc']);
  });

  it('decodes 1 as renewed and 0 as gone, per hold', () => {
    expect(expirableRenewCommand.decode([1, 0])).toEqual([true, false]);
    expect(expirableRenewCommand.decode(null)).toEqual([]);
  });
});
