// The semaphore's commands without Redis: each command's KEYS, ARGV and reply decoding against the
// header of the .lua script it runs (issue 18).
import { commandContext, PUBLISH_COMMANDS, expectScript } from '@deadbolt/conformance/commands';
import { hashSlot } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { addPermitsCommand } from '../src/commands/addPermits.js';
import { availablePermitsCommand } from '../src/commands/availablePermits.js';
import { drainPermitsCommand } from '../src/commands/drainPermits.js';
import { returnPermitsCommand } from '../src/commands/returnPermits.js';
import { tryAcquirePermitsCommand } from '../src/commands/tryAcquirePermits.js';
import { trySetPermitsCommand } from '../src/commands/trySetPermits.js';
import addPermitsLua from '../src/lua/add-permits.lua';
import availablePermitsLua from '../src/lua/available-permits.lua';
import drainPermitsLua from '../src/lua/drain-permits.lua';
import returnPermitsLua from '../src/lua/return-permits.lua';
import tryAcquireLua from '../src/lua/try-acquire.lua';
import trySetPermitsLua from '../src/lua/try-set-permits.lua';

const input = { name: 'exports', permits: 3 };
const request = { name: 'exports', request: 'a1b2:7' };
const requestInput = { ...input, ...request };
const TAGGED = 'tenant:{7}:exports';
/** The marker of request `a1b2:7`, in the semaphore's slot. */
const MARKER = 'deadbolt_permit_request:{exports}:a1b2:7';
const TAGGED_MARKER = 'deadbolt_permit_request:tenant:{7}:exports:a1b2:7';
const latchTtl = commandContext('publish').unlockLatchTtl;

const oneSlot = (keys: readonly string[]) => expect(new Set(keys.map(hashSlot)).size).toBe(1);

describe('tryAcquirePermitsCommand (try-acquire.lua)', () => {
  it('runs semaphore/try-acquire', () => expectScript(tryAcquirePermitsCommand, 'semaphore/try-acquire', tryAcquireLua, requestInput));

  it("KEYS: the semaphore, the request's marker, in one slot; ARGV: the permits", () => {
    expect(tryAcquirePermitsCommand.keys(requestInput)).toEqual(['exports', MARKER]);
    const tagged = tryAcquirePermitsCommand.keys({ ...requestInput, name: TAGGED });
    expect(tagged).toEqual([TAGGED, TAGGED_MARKER]);
    oneSlot(tagged);
    expect(tryAcquirePermitsCommand.args(requestInput, commandContext('spublish'))).toEqual([3]);
  });

  it.each([
    [1, 'taken'],
    [0, 'tooFew'],
    [-1, 'givenBack'],
  ])('decodes %j as %s', (reply, decoded) => expect(tryAcquirePermitsCommand.decode(reply)).toBe(decoded));
});

describe('returnPermitsCommand (return-permits.lua)', () => {
  it('runs semaphore/return-permits', () => expectScript(returnPermitsCommand, 'semaphore/return-permits', returnPermitsLua, request));

  it("KEYS: the semaphore, its channel, the request's marker, in one slot", () => {
    expect(returnPermitsCommand.keys(request)).toEqual(['exports', 'redisson_sc:{exports}', MARKER]);
    oneSlot(returnPermitsCommand.keys({ ...request, name: TAGGED }));
  });

  it.each(PUBLISH_COMMANDS)("ARGV with %s: the publish command, how long the 'returned' mark lives", (publish) => {
    expect(returnPermitsCommand.args(request, commandContext(publish))).toEqual([publish, latchTtl]);
  });

  it('replies the permits given back', () => {
    expect(returnPermitsCommand.decode(2)).toBe(2);
    expect(returnPermitsCommand.decode(0)).toBe(0);
  });
});

describe('addPermitsCommand (add-permits.lua)', () => {
  it('runs semaphore/add-permits', () => expectScript(addPermitsCommand, 'semaphore/add-permits', addPermitsLua, requestInput));

  it("KEYS: the semaphore, its channel redisson_sc:{name}, the request's marker, in one slot", () => {
    expect(addPermitsCommand.keys(requestInput)).toEqual(['exports', 'redisson_sc:{exports}', MARKER]);
    const tagged = addPermitsCommand.keys({ ...requestInput, name: TAGGED });
    expect(tagged).toEqual([TAGGED, `redisson_sc:${TAGGED}`, TAGGED_MARKER]);
    oneSlot(tagged);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: the permits, the publish command, how long the marker lives', (publish) => {
    expect(addPermitsCommand.args({ ...requestInput, permits: -2 }, commandContext(publish))).toEqual([-2, publish, latchTtl]);
  });
});

describe('trySetPermitsCommand (try-set-permits.lua)', () => {
  it('runs semaphore/try-set-permits', () => expectScript(trySetPermitsCommand, 'semaphore/try-set-permits', trySetPermitsLua, input));

  it('KEYS: the semaphore, its channel redisson_sc:{name}, in one slot', () => {
    expect(trySetPermitsCommand.keys(input)).toEqual(['exports', 'redisson_sc:{exports}']);
    oneSlot(trySetPermitsCommand.keys({ ...input, name: TAGGED }));
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: the permits, the publish command', (publish) => {
    expect(trySetPermitsCommand.args({ ...input, permits: 2 }, commandContext(publish))).toEqual([2, publish]);
  });
});

describe('drainPermitsCommand (drain-permits.lua)', () => {
  it('runs semaphore/drain-permits', () => expectScript(drainPermitsCommand, 'semaphore/drain-permits', drainPermitsLua, request));

  it("KEYS: the semaphore, the request's marker; ARGV: how long the marker lives", () => {
    expect(drainPermitsCommand.keys(request)).toEqual(['exports', MARKER]);
    oneSlot(drainPermitsCommand.keys({ ...request, name: TAGGED }));
    expect(drainPermitsCommand.args(request, commandContext('publish'))).toEqual([latchTtl]);
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

describe('availablePermitsCommand (available-permits.lua)', () => {
  it('runs semaphore/available-permits', () => expectScript(availablePermitsCommand, 'semaphore/available-permits', availablePermitsLua, { name: 'exports' }));

  it('KEYS: the semaphore; no ARGV', () => {
    expect(availablePermitsCommand.keys({ name: 'exports' })).toEqual(['exports']);
    expect(availablePermitsCommand.args({ name: 'exports' }, commandContext('publish'))).toEqual([]);
  });
});
