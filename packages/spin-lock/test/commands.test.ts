// The spin lock's commands and declaration without Redis: each command's KEYS, ARGV and reply
// decoding against the header of the .lua script it runs, and which command each operation of
// the kind runs (issue 18).
import {
  COMMAND_DEADLINE,
  COMMAND_LATCH_TTL,
  commandContext,
  expectScript,
  PUBLISH_COMMANDS,
} from '@deadbolt/conformance/commands';
import { exponentialBackoff, lockCommands } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { spinForceRelease } from '../src/commands/spinForceRelease.js';
import { spinRelease } from '../src/commands/spinRelease.js';
import forceReleaseLua from '../src/lua/force-release.lua?raw';
import releaseLua from '../src/lua/release.lua?raw';
import { spinLockKind } from '../src/SpinLock.js';

describe('spinRelease (release.lua)', () => {
  const input = { name: 'reports', field: 'client-1:owner-7', hold: 'inst-1:3' };

  it('runs spin-lock/release', () => expectScript(spinRelease, 'spin-lock/release', releaseLua, input));

  it("KEYS: the lock, the acquisition's request record, the hold markers; no channel", () => {
    expect(spinRelease.keys(input)).toEqual([
      'reports',
      'deadbolt_request:{reports}:inst-1:3',
      'deadbolt_holds:{reports}',
    ]);
    expect(spinRelease.keys({ ...input, name: 'tenant:{7}:reports' })).toEqual([
      'tenant:{7}:reports',
      'deadbolt_request:tenant:{7}:reports:inst-1:3',
      'deadbolt_holds:tenant:{7}:reports',
    ]);
  });

  it.each(PUBLISH_COMMANDS)('ARGV with %s: owner field, hold id, record TTL; no publish command', (publish) => {
    expect(spinRelease.args(input, commandContext(publish))).toEqual([
      'client-1:owner-7',
      'inst-1:3',
      COMMAND_LATCH_TTL,
    ]);
  });

  it.each([
    [null, 'notHeld'],
    [0, 'stillHeld'],
    [1, 'freed'],
  ])('decodes %j as %s', (reply, decoded) => expect(spinRelease.decode(reply)).toBe(decoded));

  it('the script publishes nothing', () => expect(spinRelease.script.source).not.toMatch(/publish/i));
});

describe('spinForceRelease (force-release.lua)', () => {
  const force = { name: 'reports', request: 'inst-1:9', holders: {} } as const;
  const seen = { ...force, holders: { 'client-1:owner-7': '2' } } as const;

  it('runs spin-lock/force-release', () =>
    expectScript(spinForceRelease, 'spin-lock/force-release', forceReleaseLua, force));

  it("KEYS: the lock, its hold markers, the request's record", () => {
    expect(spinForceRelease.keys(force)).toEqual([
      'reports',
      'deadbolt_holds:{reports}',
      'deadbolt_request:{reports}:inst-1:9',
    ]);
    expect(spinForceRelease.keys({ ...force, name: 'tenant:{7}:reports' })).toEqual([
      'tenant:{7}:reports',
      'deadbolt_holds:tenant:{7}:reports',
      'deadbolt_request:tenant:{7}:reports:inst-1:9',
    ]);
  });

  it.each(PUBLISH_COMMANDS)(
    'ARGV with %s: deadline, record TTL, then the hash as read; no publish command',
    (publish) => {
      expect(spinForceRelease.args(seen, commandContext(publish))).toEqual([
        COMMAND_DEADLINE,
        COMMAND_LATCH_TTL,
        'client-1:owner-7',
        '2',
      ]);
    },
  );

  it.each([
    [1, true],
    [0, false],
  ])('decodes %j as %s', (reply, decoded) => expect(spinForceRelease.decode(reply)).toBe(decoded));

  it('the script publishes nothing', () => expect(spinForceRelease.script.source).not.toMatch(/publish/i));
});

describe('spinLockKind', () => {
  const backoff = exponentialBackoff();
  const kind = spinLockKind(backoff)('reports');
  const field = 'client-1:owner-7';

  it("polls with the backoff it is given, under the kind name 'spin', and passes nothing locally", () => {
    expect(kind.backoff).toBe(backoff);
    expect(kind.kindName).toBe('spin');
    expect(kind.handOff).toBeUndefined();
  });

  it("takes, extends, renews and reads the lock with the plain lock's commands", () => {
    expect(kind.acquire({ field, hold: 'inst-1:1', lease: 30_000, waitTime: 0 }).script).toBe(
      lockCommands.acquire.script,
    );
    expect(kind.extend(field, 'inst-1:1', 10_000, 'inst-1:2').script).toBe(lockCommands.extend.script);
    expect(kind.state(field).script).toBe(lockCommands.state.script);
    expect(kind.renew).toBe(lockCommands.renew);
  });

  it('releases and force-unlocks with its own scripts, which publish nothing', () => {
    const release = kind.release(field, 'inst-1:1');
    expect([release.script, release.keys]).toEqual([
      spinRelease.script,
      spinRelease.keys({ name: 'reports', field, hold: 'inst-1:1' }),
    ]);
    expect(release.args(commandContext('publish'))).toEqual([field, 'inst-1:1', COMMAND_LATCH_TTL]);
    const holders = { [field]: '1' };
    const force = kind.forceRelease({ request: 'inst-1:9', holders });
    expect([force.script, force.keys]).toEqual([
      spinForceRelease.script,
      spinForceRelease.keys({ name: 'reports', request: 'inst-1:9', holders }),
    ]);
    expect(force.args(commandContext('publish'))).toEqual([COMMAND_DEADLINE, COMMAND_LATCH_TTL, field, '1']);
  });
});
