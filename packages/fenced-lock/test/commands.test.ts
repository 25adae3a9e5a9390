// The fenced lock's commands without Redis: each command's KEYS, ARGV and reply decoding against
// the header of the .lua script it runs (issue 15).
import { describe, expect, it } from 'vitest';
import { COMMAND_DEADLINE, commandContext, expectScript } from '@deadbolt/conformance/commands';
import { fencedAcquire } from '../src/commands/fencedAcquire.js';
import { fencedHandOff } from '../src/commands/fencedHandOff.js';
import { fencedToken } from '../src/commands/fencedToken.js';
import acquireLua from '../src/lua/acquire.lua?raw';
import handOffLua from '../src/lua/handoff.lua?raw';
import tokenLua from '../src/lua/token.lua?raw';

const BEYOND_2_53 = '12345678901234567890';

describe('fencedAcquire (acquire.lua)', () => {
  const input = { name: 'ledger', field: 'client-1:owner-7', hold: 'inst-1:3', lease: 30_000 };

  it('runs fenced-lock/acquire', () => expectScript(fencedAcquire, 'fenced-lock/acquire', acquireLua, input));

  it("KEYS: the lock, its token counter, its hold markers, the attempt's request record", () => {
    expect(fencedAcquire.keys(input)).toEqual([
      'ledger',
      'redisson_lock_token:{ledger}',
      'deadbolt_holds:{ledger}',
      'deadbolt_request:{ledger}:inst-1:3',
    ]);
    expect(fencedAcquire.keys({ ...input, name: 'tenant:{7}:ledger' })).toEqual([
      'tenant:{7}:ledger',
      'redisson_lock_token:tenant:{7}:ledger',
      'deadbolt_holds:tenant:{7}:ledger',
      'deadbolt_request:tenant:{7}:ledger:inst-1:3',
    ]);
  });

  it.each(['publish', 'spublish'] as const)('ARGV with %s: lease, owner field, hold id, deadline', (publish) => {
    expect(fencedAcquire.args(input, commandContext(publish))).toEqual([
      30_000,
      'client-1:owner-7',
      'inst-1:3',
      COMMAND_DEADLINE,
    ]);
  });

  it('decodes { token } as taken with the exact token beyond 2^53', () => {
    const reply = fencedAcquire.decode([BEYOND_2_53]);
    expect(reply).toEqual({ status: 'taken', grant: 12345678901234567890n });
    expect(reply.status === 'taken' && reply.grant.toString()).toBe(BEYOND_2_53);
    expect(fencedAcquire.decode(['1'])).toEqual({ status: 'taken', grant: 1n });
  });

  it.each([
    [4_200, { status: 'heldByOther', ttl: 4_200 }],
    [-1, { status: 'heldByOther', ttl: Infinity }],
    [0, { status: 'heldByOther', ttl: 0 }],
  ])('decodes the PTTL %j as heldByOther', (reply, decoded) => expect(fencedAcquire.decode(reply)).toEqual(decoded));
});

describe('fencedHandOff (handoff.lua)', () => {
  const input = {
    name: 'ledger',
    from: { field: 'client-1:owner-7', hold: 'inst-1:3' },
    to: { field: 'client-1:owner-8', hold: 'inst-1:4' },
    lease: 30_000,
  };

  it('runs fenced-lock/handoff', () => expectScript(fencedHandOff, 'fenced-lock/handoff', handOffLua, input));

  it("KEYS: the lock, the releasing hold's request record, the hold markers, the token counter, the receiver's request record, the channel", () => {
    expect(fencedHandOff.keys(input)).toEqual([
      'ledger',
      'deadbolt_request:{ledger}:inst-1:3',
      'deadbolt_holds:{ledger}',
      'redisson_lock_token:{ledger}',
      'deadbolt_request:{ledger}:inst-1:4',
      'redisson_lock__channel:{ledger}',
    ]);
  });

  it.each(['publish', 'spublish'] as const)(
    "ARGV with %s: releasing field and hold, receiver's field, hold and lease, the record's TTL, deadline, publish command, message 0",
    (publish) => {
      const context = commandContext(publish);
      expect(fencedHandOff.args(input, context)).toEqual([
        'client-1:owner-7',
        'inst-1:3',
        'client-1:owner-8',
        'inst-1:4',
        30_000,
        context.recordTtl,
        context.deadline,
        publish,
        0,
      ]);
    },
  );

  it.each([
    [[BEYOND_2_53], { status: 'passed', grant: 12345678901234567890n }],
    [['5'], { status: 'passed', grant: 5n }],
    [0, { status: 'stillHeld' }],
    [null, { status: 'notHeld' }],
    [2, { status: 'released' }],
  ])('decodes %j', (reply, decoded) => expect(fencedHandOff.decode(reply)).toEqual(decoded));
});

describe('fencedToken (token.lua)', () => {
  it('runs fenced-lock/token', () => expectScript(fencedToken, 'fenced-lock/token', tokenLua, { name: 'ledger' }));

  it('KEYS: the token counter; no ARGV', () => {
    expect(fencedToken.keys({ name: 'ledger' })).toEqual(['redisson_lock_token:{ledger}']);
    expect(fencedToken.keys({ name: 'tenant:{7}:ledger' })).toEqual(['redisson_lock_token:tenant:{7}:ledger']);
    expect(fencedToken.args({ name: 'ledger' }, commandContext('spublish'))).toEqual([]);
  });

  it.each([
    [null, null],
    ['7', 7n],
    [BEYOND_2_53, 12345678901234567890n],
  ])('decodes %j as %s', (reply, decoded) => expect(fencedToken.decode(reply)).toBe(decoded));
});
