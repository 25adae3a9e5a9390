// The semaphore's commands without Redis: each command's KEYS, ARGV and reply decoding against the
// header of the .lua script it runs (issue 18), and the fragments each script runs after (issue 30).
import {
  commandContext,
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  PUBLISH_COMMANDS,
  expectScript,
  scriptBody,
} from '@deadbolt/conformance/commands';
import { coreLua } from '@deadbolt/core/kit';
import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { addPermitsCommand } from '../src/commands/addPermits.js';
import { availablePermitsCommand } from '../src/commands/availablePermits.js';
import { drainPermitsCommand } from '../src/commands/drainPermits.js';
import { returnPermitsCommand } from '../src/commands/returnPermits.js';
import { syncHoldsCommand } from '../src/commands/syncHolds.js';
import { tryAcquirePermitsCommand } from '../src/commands/tryAcquirePermits.js';
import { trySetPermitsCommand } from '../src/commands/trySetPermits.js';
import addPermitsLua from '../src/lua/add-permits.lua?raw';
import availablePermitsLua from '../src/lua/available-permits.lua?raw';
import drainPermitsLua from '../src/lua/drain-permits.lua?raw';
import returnPermitsLua from '../src/lua/return-permits.lua?raw';
import holdsLua from '../src/lua/semaphore-holds.lua?raw';
import syncHoldsLua from '../src/lua/sync-holds.lua?raw';
import tryAcquireLua from '../src/lua/try-acquire.lua?raw';
import trySetPermitsLua from '../src/lua/try-set-permits.lua?raw';

const input = { name: 'exports', permits: 3 };
const request = { name: 'exports', request: 'a1b2:7' };
const requestInput = { ...input, ...request };
const hold = { name: 'exports', hold: 'a1b2:7' };
const TAGGED = 'tenant:{7}:exports';
/** The record of request (or attempt) `a1b2:7`, in the semaphore's slot. */
const RECORD = 'deadbolt_request:{exports}:a1b2:7';
const TAGGED_RECORD = 'deadbolt_request:tenant:{7}:exports:a1b2:7';
/** The semaphore's holds. */
const HOLDS = 'deadbolt_holds:{exports}';
const TAGGED_HOLDS = 'deadbolt_holds:tenant:{7}:exports';

const oneSlot = (keys: readonly string[]) => expect(new Set(keys.map(hashSlot)).size).toBe(1);

describe('tryAcquirePermitsCommand (try-acquire.lua)', () => {
  const attempt = { ...input, ...hold };

  it('runs semaphore/try-acquire after the request deadline and the holds', () => {
    expectScript(tryAcquirePermitsCommand, 'semaphore/try-acquire', tryAcquireLua, attempt);
    expect(tryAcquirePermitsCommand.script.source).toBe(
      `${coreLua.requestDeadline}\n${holdsLua}\n${scriptBody(tryAcquireLua)}`,
    );
  });

  it("KEYS: the semaphore, its holds, the attempt's record, in one slot; ARGV: the permits, the hold id, the deadline", () => {
    expect(tryAcquirePermitsCommand.keys(attempt)).toEqual(['exports', HOLDS, RECORD]);
    const tagged = tryAcquirePermitsCommand.keys({ ...attempt, name: TAGGED });
    expect(tagged).toEqual([TAGGED, TAGGED_HOLDS, TAGGED_RECORD]);
    oneSlot(tagged);
    expect(tryAcquirePermitsCommand.args(attempt, commandContext('spublish'))).toEqual([3, 'a1b2:7', COMMAND_DEADLINE]);
  });

  it.each([
    [[1, -1], 'taken', -1],
    [[0, 5000], 'tooFew', 5000],
    [[-1, -2], 'givenBack', -2],
  ])("decodes %j as %s, with the semaphore's PTTL", (reply, outcome, ttl) =>
    expect(tryAcquirePermitsCommand.decode(reply)).toEqual({ outcome, ttl }),
  );
});

describe('returnPermitsCommand (return-permits.lua)', () => {
  it('runs semaphore/return-permits after release-once and the holds', () => {
    expectScript(returnPermitsCommand, 'semaphore/return-permits', returnPermitsLua, hold);
    expect(returnPermitsCommand.script.source).toBe(
      `${coreLua.releaseOnce}\n${holdsLua}\n${scriptBody(returnPermitsLua)}`,
    );
  });

  it("KEYS: the semaphore, its channel, the attempt's record, its holds, in one slot", () => {
    expect(returnPermitsCommand.keys(hold)).toEqual(['exports', 'redisson_sc:{exports}', RECORD, HOLDS]);
    oneSlot(returnPermitsCommand.keys({ ...hold, name: TAGGED }));
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: the publish command, the hold id, how long the record keeps the outcome',
    (publish) => {
      expect(returnPermitsCommand.args(hold, commandContext(publish))).toEqual([publish, 'a1b2:7', COMMAND_LATCH_TTL]);
    },
  );

  it('replies the permits given back; nil, none held, is 0', () => {
    expect(returnPermitsCommand.decode(2)).toBe(2);
    expect(returnPermitsCommand.decode(null)).toBe(0);
  });
});

describe('addPermitsCommand (add-permits.lua)', () => {
  const adding = { ...requestInput, ttl: 'clear' } as const;

  it('runs semaphore/add-permits after the request deadline and the holds', () => {
    expectScript(addPermitsCommand, 'semaphore/add-permits', addPermitsLua, adding);
    expect(addPermitsCommand.script.source).toBe(
      `${coreLua.requestDeadline}\n${holdsLua}\n${scriptBody(addPermitsLua)}`,
    );
  });

  it("KEYS: the semaphore, its channel redisson_sc:{name}, its holds, the request's record, in one slot", () => {
    expect(addPermitsCommand.keys(adding)).toEqual(['exports', 'redisson_sc:{exports}', HOLDS, RECORD]);
    const tagged = addPermitsCommand.keys({ ...adding, name: TAGGED });
    expect(tagged).toEqual([TAGGED, `redisson_sc:${scriptBody(TAGGED)}`, TAGGED_HOLDS, TAGGED_RECORD]);
    oneSlot(tagged);
  });

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: the permits, the publish command, what becomes of the TTL, the deadline, the record's life past it",
    (publish) => {
      expect(addPermitsCommand.args({ ...adding, permits: -2 }, commandContext(publish))).toEqual([
        -2,
        publish,
        'clear',
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
      expect(addPermitsCommand.args({ ...adding, ttl: 'keep' }, commandContext(publish))).toEqual([
        3,
        publish,
        'keep',
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
    },
  );
});

describe('trySetPermitsCommand (try-set-permits.lua)', () => {
  it('runs semaphore/try-set-permits after the request deadline and the holds', () => {
    expectScript(trySetPermitsCommand, 'semaphore/try-set-permits', trySetPermitsLua, requestInput);
    expect(trySetPermitsCommand.script.source).toBe(
      `${coreLua.requestDeadline}\n${holdsLua}\n${scriptBody(trySetPermitsLua)}`,
    );
  });

  it("KEYS: the semaphore, its channel redisson_sc:{name}, its holds, the request's record, in one slot", () => {
    expect(trySetPermitsCommand.keys(requestInput)).toEqual(['exports', 'redisson_sc:{exports}', HOLDS, RECORD]);
    oneSlot(trySetPermitsCommand.keys({ ...requestInput, name: TAGGED }));
  });

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: the permits, the publish command, the deadline, the record's life past it",
    (publish) => {
      expect(trySetPermitsCommand.args({ ...requestInput, permits: 2 }, commandContext(publish))).toEqual([
        2,
        publish,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
    },
  );
});

describe('drainPermitsCommand (drain-permits.lua)', () => {
  it('runs semaphore/drain-permits after the request deadline and the holds', () => {
    expectScript(drainPermitsCommand, 'semaphore/drain-permits', drainPermitsLua, request);
    expect(drainPermitsCommand.script.source).toBe(
      `${coreLua.requestDeadline}\n${holdsLua}\n${scriptBody(drainPermitsLua)}`,
    );
  });

  it("KEYS: the semaphore, its holds, the request's record; ARGV: the deadline, the record's life past it", () => {
    expect(drainPermitsCommand.keys(request)).toEqual(['exports', HOLDS, RECORD]);
    oneSlot(drainPermitsCommand.keys({ ...request, name: TAGGED }));
    expect(drainPermitsCommand.args(request, commandContext('publish'))).toEqual([COMMAND_DEADLINE, COMMAND_LATCH_TTL]);
  });
});

describe('syncHoldsCommand (sync-holds.lua)', () => {
  it('runs semaphore/sync-holds after the holds', () => {
    expectScript(syncHoldsCommand, 'semaphore/sync-holds', syncHoldsLua, { name: 'exports' });
    expect(syncHoldsCommand.script.source).toBe(`${holdsLua}\n${scriptBody(syncHoldsLua)}`);
  });

  it('KEYS: the semaphore, its holds, in one slot; no ARGV; replies the PTTL', () => {
    expect(syncHoldsCommand.keys({ name: 'exports' })).toEqual(['exports', HOLDS]);
    oneSlot(syncHoldsCommand.keys({ name: TAGGED }));
    expect(syncHoldsCommand.args({ name: 'exports' }, commandContext('publish'))).toEqual([]);
    expect([syncHoldsCommand.decode(-2), syncHoldsCommand.decode(-1), syncHoldsCommand.decode(900)]).toEqual([
      -2, -1, 900,
    ]);
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

  it('drainPermits replies how many there were, or 0 for a missing semaphore', () => {
    expect(drainPermitsCommand.decode(7)).toBe(7);
    expect(drainPermitsCommand.decode(-3)).toBe(-3);
    expect(drainPermitsCommand.decode(0)).toBe(0);
  });

  it('availablePermits reads the stored string; nil is 0', () => {
    expect(availablePermitsCommand.decode('4')).toBe(4);
    expect(availablePermitsCommand.decode(null)).toBe(0);
  });
});

describe('availablePermitsCommand (available-permits.lua)', () => {
  it('runs semaphore/available-permits', () =>
    expectScript(availablePermitsCommand, 'semaphore/available-permits', availablePermitsLua, { name: 'exports' }));

  it('KEYS: the semaphore; no ARGV', () => {
    expect(availablePermitsCommand.keys({ name: 'exports' })).toEqual(['exports']);
    expect(availablePermitsCommand.args({ name: 'exports' }, commandContext('publish'))).toEqual([]);
  });
});
