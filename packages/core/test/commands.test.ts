// The reentrant lock's commands without Redis: each command's KEYS, ARGV and reply decoding
// against the header of the .lua script it runs (issue 15).
import { describe, expect, it } from 'vitest';
import {
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  commandContext,
  expectScript,
  scriptBody,
  PUBLISH_COMMANDS,
} from '../../conformance/src/commandChecks.js';
import { lockAcquire } from '../src/commands/lockAcquire.js';
import { lockCommands } from '../src/commands/lockCommands.js';
import { lockExtend } from '../src/commands/lockExtend.js';
import { holderArguments, lockForceRelease } from '../src/commands/lockForceRelease.js';
import { decodeHash, lockHolders } from '../src/commands/lockHolders.js';
import { requestNumber } from '../src/commands/requestNumber.js';
import { lockHandOff } from '../src/commands/lockHandOff.js';
import { lockRelease } from '../src/commands/lockRelease.js';
import { lockState } from '../src/commands/lockState.js';
import { UNLOCK_MESSAGE } from '../src/commands/messages.js';
import { lockRenew, renewBatchCommand } from '../src/commands/renewBatch.js';
import {
  decodeDone,
  decodeHandOff,
  decodeLockState,
  decodeNilOrTtl,
  decodePttl,
  decodeRelease,
  HANDOFF_RELEASED,
  handOffNotPassed,
  heldByOther,
} from '../src/commands/replies.js';
import { serverVersion } from '../src/commands/serverVersion.js';
import type { ScriptArgument } from '../src/executor/Executor.js';
import { holdMarkersKey, lockChannelName, requestRecordKey } from '../src/keys/lockKeys.js';
import { coreScripts } from '../src/scripts/coreScripts.js';
import acquireLua from '../src/scripts/lua/lock-acquire.lua?raw';
import extendLua from '../src/scripts/lua/lock-extend.lua?raw';
import forceReleaseLua from '../src/scripts/lua/lock-force-release.lua?raw';
import holdersLua from '../src/scripts/lua/lock-holders.lua?raw';
import handOffLua from '../src/scripts/lua/lock-handoff.lua?raw';
import releaseLua from '../src/scripts/lua/lock-release.lua?raw';
import renewLua from '../src/scripts/lua/lock-renew.lua?raw';
import stateLua from '../src/scripts/lua/lock-state.lua?raw';
import serverVersionLua from '../src/scripts/lua/server-version.lua?raw';

const hold = { name: 'orders', field: 'client-1:owner-7', hold: 'inst-1:3' } as const;
const tagged = { ...hold, name: 'tenant:{7}:orders' } as const;
const leased = { ...hold, lease: 30_000 } as const;

describe('key helpers', () => {
  it.each([
    ['orders', 'redisson_lock__channel:{orders}', 'deadbolt_holds:{orders}', 'deadbolt_request:{orders}:inst-1:3'],
    [
      'tenant:{7}:orders',
      'redisson_lock__channel:tenant:{7}:orders',
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
    ],
  ])('derive the keys of %s in its slot', (name, channel, markers, latch) => {
    expect([lockChannelName(name), holdMarkersKey(name), requestRecordKey(name, 'inst-1:3')]).toEqual([
      channel,
      markers,
      latch,
    ]);
  });
});

describe('lockAcquire (lock-acquire.lua)', () => {
  it('runs core/lock-acquire', () => expectScript(lockAcquire, 'core/lock-acquire', acquireLua, leased));

  it("KEYS: the lock, its hold markers, the attempt's request record", () => {
    expect(lockAcquire.keys(leased)).toEqual([
      'orders',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
    ]);
    expect(lockAcquire.keys({ ...tagged, lease: 1 })).toEqual([
      'tenant:{7}:orders',
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
    ]);
  });

  it('ARGV: lease, owner field, hold id, deadline', () => {
    expect(lockAcquire.args(leased, commandContext('spublish'))).toEqual([
      30_000,
      'client-1:owner-7',
      'inst-1:3',
      COMMAND_DEADLINE,
    ]);
  });

  it.each([
    [null, { status: 'taken', grant: null }],
    [1234, { status: 'heldByOther', ttl: 1234 }],
    [-1, { status: 'heldByOther', ttl: Infinity }],
    [0, { status: 'heldByOther', ttl: 0 }],
  ])('decodes %j', (reply, decoded) => expect(lockAcquire.decode(reply)).toEqual(decoded));
});

describe('lockRelease (lock-release.lua)', () => {
  it('runs core/lock-release', () => expectScript(lockRelease, 'core/lock-release', releaseLua, hold));

  it("KEYS: the lock, its channel, the acquisition's request record, its hold markers", () => {
    expect(lockRelease.keys(hold)).toEqual([
      'orders',
      'redisson_lock__channel:{orders}',
      'deadbolt_request:{orders}:inst-1:3',
      'deadbolt_holds:{orders}',
    ]);
    expect(lockRelease.keys(tagged)).toEqual([
      'tenant:{7}:orders',
      'redisson_lock__channel:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
      'deadbolt_holds:tenant:{7}:orders',
    ]);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: message 0, owner field, hold id, publish command, record TTL', (publish) => {
    expect(lockRelease.args(hold, commandContext(publish))).toEqual([
      0,
      'client-1:owner-7',
      'inst-1:3',
      publish,
      COMMAND_LATCH_TTL,
    ]);
  });

  it.each([
    [null, 'notHeld'],
    [0, 'stillHeld'],
    [1, 'freed'],
  ])('decodes %j as %s', (reply, decoded) => expect(lockRelease.decode(reply)).toBe(decoded));
});

describe('lockHandOff (lock-handoff.lua)', () => {
  const handOff = {
    name: 'orders',
    from: { field: hold.field, hold: hold.hold },
    to: { field: 'client-1:owner-8', hold: 'inst-1:4' },
    lease: 5_000,
  } as const;

  it('runs core/lock-handoff', () => expectScript(lockHandOff, 'core/lock-handoff', handOffLua, handOff));

  it("KEYS: the lock, the releasing hold's request record, its hold markers, the receiver's request record, its channel", () => {
    expect(lockHandOff.keys(handOff)).toEqual([
      'orders',
      'deadbolt_request:{orders}:inst-1:3',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:4',
      'redisson_lock__channel:{orders}',
    ]);
    expect(lockHandOff.keys({ ...handOff, name: 'tenant:{7}:orders' })).toEqual([
      'tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:3',
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:4',
      'redisson_lock__channel:tenant:{7}:orders',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    "ARGV with %s: releasing field and hold, receiving field and hold, the receiver's lease, record TTL, deadline, publish command, message 0",
    (publish) => {
      expect(lockHandOff.args(handOff, commandContext(publish))).toEqual([
        'client-1:owner-7',
        'inst-1:3',
        'client-1:owner-8',
        'inst-1:4',
        5_000,
        COMMAND_LATCH_TTL,
        COMMAND_DEADLINE,
        publish,
        UNLOCK_MESSAGE,
      ]);
    },
  );

  it.each([
    [null, { status: 'notHeld' }],
    [0, { status: 'stillHeld' }],
    [1, { status: 'passed', grant: null }],
    ['1', { status: 'passed', grant: null }],
    [HANDOFF_RELEASED, { status: 'released' }],
  ])('decodes %j as %j', (reply, decoded) => {
    expect(lockHandOff.decode(reply)).toEqual(decoded);
    expect(decodeHandOff(reply)).toEqual(decoded);
  });
});

describe('lockForceRelease (lock-force-release.lua)', () => {
  const force = { name: 'orders', request: 'inst-1:9', holders: {} } as const;
  const seen = { ...force, holders: { 'client-1:owner-7': '2', 'client-2:owner-1': '1' } } as const;

  it('runs core/lock-force-release', () =>
    expectScript(lockForceRelease, 'core/lock-force-release', forceReleaseLua, force));

  it("KEYS: the lock, its channel, its hold markers, the request's record", () => {
    expect(lockForceRelease.keys(force)).toEqual([
      'orders',
      'redisson_lock__channel:{orders}',
      'deadbolt_holds:{orders}',
      'deadbolt_request:{orders}:inst-1:9',
    ]);
    expect(lockForceRelease.keys({ ...force, name: 'tenant:{7}:orders' })).toEqual([
      'tenant:{7}:orders',
      'redisson_lock__channel:tenant:{7}:orders',
      'deadbolt_holds:tenant:{7}:orders',
      'deadbolt_request:tenant:{7}:orders:inst-1:9',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: message 0, publish command, deadline, record TTL, then the hash as read',
    (publish) => {
      expect(lockForceRelease.args(seen, commandContext(publish))).toEqual([
        UNLOCK_MESSAGE,
        publish,
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
        'client-1:owner-7',
        '2',
        'client-2:owner-1',
        '1',
      ]);
      expect(holderArguments({})).toEqual([]);
      expect(UNLOCK_MESSAGE).toBe(0);
    },
  );

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(lockForceRelease.decode(reply)).toBe(decoded));
});

describe('lockHolders (lock-holders.lua)', () => {
  it('runs core/lock-holders on the lock alone', () => {
    expectScript(lockHolders, 'core/lock-holders', holdersLua, { name: 'orders' });
    expect(lockHolders.keys({ name: 'orders' })).toEqual(['orders']);
  });

  it('decodes the alternating fields and values', () => {
    expect(lockHolders.decode(['client-1:a', '2', 'mode', 'write'])).toEqual({ 'client-1:a': '2', mode: 'write' });
    expect(decodeHash([])).toEqual({});
    expect(decodeHash(null)).toEqual({});
  });
});

describe('lockExtend (lock-extend.lua)', () => {
  const extending = { ...leased, request: 'inst-1:12' } as const;

  it('runs core/lock-extend', () => expectScript(lockExtend, 'core/lock-extend', extendLua, extending));

  it('KEYS: the lock, its hold markers', () => {
    expect(lockExtend.keys(extending)).toEqual(['orders', 'deadbolt_holds:{orders}']);
    expect(lockExtend.keys({ ...tagged, lease: 1, request: 'inst-1:12' })).toEqual([
      'tenant:{7}:orders',
      'deadbolt_holds:tenant:{7}:orders',
    ]);
  });

  it("ARGV: new lease, owner field, hold id, the extend's request number, deadline", () => {
    expect(lockExtend.args({ ...extending, lease: 5_000 }, commandContext('publish'))).toEqual([
      5_000,
      'client-1:owner-7',
      'inst-1:3',
      12,
      COMMAND_DEADLINE,
    ]);
    expect(requestNumber('0c1f-uuid:4:1234')).toBe(1234);
  });

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(lockExtend.decode(reply)).toBe(decoded));
});

describe('lockState (lock-state.lua)', () => {
  const input = { name: 'orders', field: 'client-1:owner-7' };

  it('runs core/lock-state', () => expectScript(lockState, 'core/lock-state', stateLua, input));

  it('KEYS: the lock; ARGV: the owner field, or none', () => {
    expect(lockState.keys({ ...input, name: 'tenant:{7}:orders' })).toEqual(['tenant:{7}:orders']);
    expect(lockState.args(input, commandContext('publish'))).toEqual(['client-1:owner-7']);
    expect(lockState.args({ ...input, field: '' }, commandContext('publish'))).toEqual(['']);
  });

  it.each([
    [[-2, 0], { ttl: null, holds: 0 }],
    [[-1, 2], { ttl: Infinity, holds: 2 }],
    [[9_500, 1], { ttl: 9_500, holds: 1 }],
  ])('decodes %j', (reply, decoded) => expect(lockState.decode(reply)).toEqual(decoded));
});

describe('lockRenew and renewBatchCommand (lock-renew.lua)', () => {
  const batch = {
    lease: 30_000,
    holds: [
      hold,
      { ...hold, field: 'client-1:owner-8', hold: 'inst-1:4' },
      { ...hold, name: '{orders}:other', hold: 'inst-1:5' },
    ],
  };

  it('runs core/lock-renew', () => {
    expect(lockRenew.script.name).toBe('core/lock-renew');
    expect(lockRenew.script.source.endsWith(scriptBody(renewLua))).toBe(true);
    expect(renewBatchCommand(coreScripts.extend).script).toBe(coreScripts.extend);
  });

  it('KEYS[i]: the lock of hold i (a lock twice for two holds)', () => {
    expect(lockRenew.keys(batch)).toEqual(['orders', 'orders', '{orders}:other']);
  });

  it('ARGV: lease, deadline, then field and hold id of each key', () => {
    const expected: ScriptArgument[] = [
      30_000,
      COMMAND_DEADLINE,
      'client-1:owner-7',
      'inst-1:3',
      'client-1:owner-8',
      'inst-1:4',
      'client-1:owner-7',
      'inst-1:5',
    ];
    expect(lockRenew.args(batch, commandContext('spublish'))).toEqual(expected);
    expect(lockRenew.args({ lease: 1, holds: [] }, commandContext('publish'))).toEqual([1, COMMAND_DEADLINE]);
  });

  it('decodes 1 renewed, 0 gone per key', () => {
    expect(lockRenew.decode([1, 0, 1])).toEqual([true, false, true]);
    expect(lockRenew.decode([])).toEqual([]);
  });
});

describe('serverVersion (server-version.lua)', () => {
  it('runs core/server-version with no KEYS and no ARGV', () => {
    expectScript(serverVersion, 'core/server-version', serverVersionLua, null);
    expect([serverVersion.keys(null), serverVersion.args(null, commandContext('publish'))]).toEqual([[], []]);
  });

  it.each([
    ['7.0.15', 0x07000f],
    ['8.0.2', 0x080002],
    ['6.0.16', 0x060010],
    ['7.2.4', 0x070204],
  ])('decodes %j as number %j', (reply, number) =>
    expect(serverVersion.decode(reply)).toEqual({ text: reply, number }),
  );
});

describe('lockCommands', () => {
  it('names the reentrant lock commands', () => {
    expect(lockCommands).toEqual({
      acquire: lockAcquire,
      release: lockRelease,
      handOff: lockHandOff,
      forceRelease: lockForceRelease,
      holders: lockHolders,
      extend: lockExtend,
      state: lockState,
      renew: lockRenew,
    });
  });
});

describe('reply decoders', () => {
  it.each([
    [-2, null],
    [-1, Infinity],
    [0, 0],
    [1500, 1500],
    ['1500', 1500],
  ])('decodePttl(%j) is %j', (reply, decoded) => expect(decodePttl(reply)).toBe(decoded));

  it('decodeNilOrTtl: nil is taken, a PTTL is heldByOther', () => {
    expect(decodeNilOrTtl(null)).toEqual({ status: 'taken', grant: null });
    expect(decodeNilOrTtl(800)).toEqual({ status: 'heldByOther', ttl: 800 });
    expect(decodeNilOrTtl(-1)).toEqual({ status: 'heldByOther', ttl: Infinity });
  });

  it('heldByOther reads the PTTL, no expiry as Infinity', () => {
    expect(heldByOther(750)).toEqual({ status: 'heldByOther', ttl: 750 });
    expect(heldByOther('750')).toEqual({ status: 'heldByOther', ttl: 750 });
    expect(heldByOther(-1)).toEqual({ status: 'heldByOther', ttl: Infinity });
  });

  it.each([
    [null, 'notHeld'],
    [0, 'stillHeld'],
    [1, 'freed'],
  ])('decodeRelease(%j) is %s', (reply, decoded) => expect(decodeRelease(reply)).toBe(decoded));

  it.each([
    [null, { status: 'notHeld' }],
    [0, { status: 'stillHeld' }],
    ['0', { status: 'stillHeld' }],
    [2, { status: 'released' }],
    ['2', { status: 'released' }],
  ])('handOffNotPassed(%j) is %j', (reply, decoded) => expect(handOffNotPassed(reply)).toEqual(decoded));

  it.each([
    [1, true],
    [0, false],
    ['1', true],
  ])('decodeDone(%j) is %s', (reply, decoded) => expect(decodeDone(reply)).toBe(decoded));

  it.each([
    [[-2, 0], { ttl: null, holds: 0 }],
    [[-1, 3], { ttl: Infinity, holds: 3 }],
    [[42, 1], { ttl: 42, holds: 1 }],
  ])('decodeLockState(%j) is %j', (reply, decoded) => expect(decodeLockState(reply)).toEqual(decoded));
});
