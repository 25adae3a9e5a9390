// The latch's commands without Redis: each command's KEYS, ARGV and reply decoding against the
// header of the .lua script it runs (issue 18).
import {
  commandContext,
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  expectScript,
  scriptBody,
  PUBLISH_COMMANDS,
} from '@deadbolt/conformance/commands';
import { LockError } from '@deadbolt/core';
import { coreLua } from '@deadbolt/core/kit';
import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { countDownCommand } from '../src/commands/countDown.js';
import { deleteLatchCommand } from '../src/commands/deleteLatch.js';
import { getCountCommand } from '../src/commands/getCount.js';
import { trySetCountCommand } from '../src/commands/trySetCount.js';
import countDownLua from '../src/lua/count-down.lua?raw';
import deleteLua from '../src/lua/delete.lua?raw';
import getCountLua from '../src/lua/get-count.lua?raw';
import trySetCountLua from '../src/lua/try-set-count.lua?raw';

const request = { name: 'deploy:42', request: 'inst-1:7' };
const REQUEST_KEYS = [
  'deploy:42',
  'redisson_countdownlatch__channel__{deploy:42}',
  'deadbolt_request:{deploy:42}:inst-1:7',
];

describe('trySetCountCommand (try-set-count.lua)', () => {
  const input = { ...request, count: 3 };

  it('runs countdown-latch/try-set-count after the request-deadline fragment', () => {
    expectScript(trySetCountCommand, 'countdown-latch/try-set-count', trySetCountLua, input);
    expect(trySetCountCommand.script.source).toBe(`${coreLua.requestDeadline}\n${scriptBody(trySetCountLua)}`);
  });

  it("KEYS: the latch, its channel, the request's record, all in the latch's slot", () => {
    const keys = trySetCountCommand.keys(input);
    expect(keys).toEqual(REQUEST_KEYS);
    expect(new Set(keys.map(hashSlot))).toEqual(new Set([hashSlot('deploy:42')]));
  });

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: the count, the publish command, the request's deadline, the record's life past it",
    (publish) => {
      expect(trySetCountCommand.args(input, commandContext(publish))).toEqual([
        3,
        publish,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
      ]);
    },
  );

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %j', (reply, decoded) => expect(trySetCountCommand.decode(reply)).toBe(decoded));
});

describe.each([
  ['countDownCommand', countDownCommand, 'countdown-latch/count-down', countDownLua],
  ['deleteLatchCommand', deleteLatchCommand, 'countdown-latch/delete', deleteLua],
] as const)('%s', (_label, command, script, lua) => {
  it(`runs ${script} after the request-deadline fragment`, () => {
    expectScript(command, script, lua, request);
    expect(command.script.source).toBe(`${coreLua.requestDeadline}\n${scriptBody(lua)}`);
  });

  it("KEYS: the latch, its channel, the request's record", () => expect(command.keys(request)).toEqual(REQUEST_KEYS));

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: the publish command, the request's deadline, the record's life past it",
    (publish) => {
      expect(command.args(request, commandContext(publish))).toEqual([publish, COMMAND_DEADLINE, COMMAND_LATCH_TTL]);
    },
  );
});

it('deleteLatchCommand decodes 1 as deleted and 0 as no latch; countDownCommand decodes to nothing', () => {
  expect([deleteLatchCommand.decode(1), deleteLatchCommand.decode(0)]).toEqual([true, false]);
  expect(countDownCommand.decode(-1)).toBeUndefined();
});

describe('getCountCommand (get-count.lua)', () => {
  it('runs countdown-latch/get-count on the latch alone', () => {
    expectScript(getCountCommand, 'countdown-latch/get-count', getCountLua, { name: 'deploy:42' });
    expect(getCountCommand.keys({ name: 'deploy:42' })).toEqual(['deploy:42']);
  });

  it.each([
    [null, 0],
    ['3', 3],
    ['0', 0],
    ['-2', -2],
    [Buffer.from('12'), 12],
  ])('decodes %j as %j', (reply, decoded) => expect(getCountCommand.decode(reply)).toBe(decoded));

  it('refuses a value that is not a count', () => {
    expect(() => getCountCommand.decode('ready')).toThrow(LockError);
    expect(() => getCountCommand.decode('1.5')).toThrow(/holds a whole number, found "1.5"/);
  });
});
