// The semaphore's commands without Redis: each command's KEYS, ARGV and reply decoding against the
// header of the .lua script it runs (issue 18).
import { commandContext, PUBLISH_COMMANDS, expectScript } from '@deadbolt/conformance/commands';
import { hashSlot } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { addPermitsCommand } from '../src/commands/addPermits.js';
import { availablePermitsCommand } from '../src/commands/availablePermits.js';
import { drainPermitsCommand } from '../src/commands/drainPermits.js';
import { tryAcquirePermitsCommand } from '../src/commands/tryAcquirePermits.js';
import { trySetPermitsCommand } from '../src/commands/trySetPermits.js';
import addPermitsLua from '../src/lua/add-permits.lua';
import availablePermitsLua from '../src/lua/available-permits.lua';
import drainPermitsLua from '../src/lua/drain-permits.lua';
import tryAcquireLua from '../src/lua/try-acquire.lua';
import trySetPermitsLua from '../src/lua/try-set-permits.lua';

const input = { name: 'exports', permits: 3 };

describe('tryAcquirePermitsCommand (try-acquire.lua)', () => {
  it('runs semaphore/try-acquire', () => expectScript(tryAcquirePermitsCommand, 'semaphore/try-acquire', tryAcquireLua, input));

  it('KEYS: the semaphore; ARGV: the permits', () => {
    expect(tryAcquirePermitsCommand.keys(input)).toEqual(['exports']);
    expect(tryAcquirePermitsCommand.args(input, commandContext('spublish'))).toEqual([3]);
  });

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, taken) => expect(tryAcquirePermitsCommand.decode(reply)).toBe(taken));
});

describe.each([
  ['addPermitsCommand', addPermitsCommand, 'semaphore/add-permits', addPermitsLua],
  ['trySetPermitsCommand', trySetPermitsCommand, 'semaphore/try-set-permits', trySetPermitsLua],
] as const)('%s', (_, command, script, lua) => {
  it(`runs ${script}`, () => expectScript(command, script, lua, input));

  it('KEYS: the semaphore, its channel redisson_sc:{name}, in one slot', () => {
    expect(command.keys(input)).toEqual(['exports', 'redisson_sc:{exports}']);
    const tagged = command.keys({ ...input, name: 'tenant:{7}:exports' });
    expect(tagged).toEqual(['tenant:{7}:exports', 'redisson_sc:tenant:{7}:exports']);
    expect(new Set(tagged.map(hashSlot)).size).toBe(1);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: the permits, the publish command', (publish) => {
    expect(command.args({ ...input, permits: -2 }, commandContext(publish))).toEqual([-2, publish]);
  });
});

describe('decoding', () => {
  it('addPermits replies the permits now available', () => {
    expect(addPermitsCommand.decode(5)).toBe(5);
    expect(addPermitsCommand.decode(-2)).toBe(-2);
  });

  it.each([
    [1, true],
    [0, false],
  ])('trySetPermits decodes %j as %s', (reply, set) => expect(trySetPermitsCommand.decode(reply)).toBe(set));

  it('drainPermits replies the stored string, or 0 for a missing semaphore', () => {
    expect(drainPermitsCommand.decode('7')).toBe(7);
    expect(drainPermitsCommand.decode('-3')).toBe(-3);
    expect(drainPermitsCommand.decode(0)).toBe(0);
  });

  it('availablePermits reads the stored string; nil is 0', () => {
    expect(availablePermitsCommand.decode('4')).toBe(4);
    expect(availablePermitsCommand.decode(null)).toBe(0);
  });
});

describe.each([
  ['drainPermitsCommand', drainPermitsCommand, 'semaphore/drain-permits', drainPermitsLua],
  ['availablePermitsCommand', availablePermitsCommand, 'semaphore/available-permits', availablePermitsLua],
] as const)('%s', (_, command, script, lua) => {
  it(`runs ${script}`, () => expectScript(command, script, lua, { name: 'exports' }));

  it('KEYS: the semaphore; no ARGV', () => {
    expect(command.keys({ name: 'exports' })).toEqual(['exports']);
    expect(command.args({ name: 'exports' }, commandContext('publish'))).toEqual([]);
  });
});
