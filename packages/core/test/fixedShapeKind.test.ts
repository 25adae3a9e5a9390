// A kind's declaration is copied into one shape for every handle (issue 15's bench): its members
// all come through, its methods keep their `this`, and declarations built differently (spread,
// with and without optional members) end up with the same members in the same order.
import { describe, expect, it } from 'vitest';
import { reentrantLockKind } from '../src/lock/Lock.js';
import { fixedShapeKind } from '../src/lock/fixedShapeKind.js';
import type { LockKind } from '../src/lock/LockKind.js';
import { lockCommands } from '../src/commands/lockCommands.js';
import type { Call, CommandContext } from '../src/scripts/Command.js';

const CONTEXT: CommandContext = { publish: 'publish', recordTtl: 20_000, now: 0, deadline: 10_000 };

// What a call sends: its script, keys and arguments.
const wire = (call: Call<unknown>) => ({ script: call.script.name, keys: call.keys, args: call.args(CONTEXT) });

describe('fixedShapeKind', () => {
  it('gives declarations built in different ways the same members in the same order', () => {
    const plain = fixedShapeKind(reentrantLockKind('a'));
    const spread = fixedShapeKind({
      ...reentrantLockKind('b'),
      handOff: lockCommands.handOff,
      guardsFixedLeases: true,
    });
    expect(Object.keys(spread)).toEqual(Object.keys(plain));
    expect(plain.handOff).toBeUndefined();
    expect(spread.handOff).toBe(lockCommands.handOff);
    expect(spread.guardsFixedLeases).toBe(true);
  });

  it("keeps every member's value and calls the declaration's methods with the declaration as `this`", () => {
    const base = reentrantLockKind('c');
    const declaration: LockKind & { readonly suffix: string } = {
      ...base,
      suffix: ':read',
      holdField(field) {
        return `${field}${this.suffix}`;
      },
      refused(owner) {
        return new Error(`${owner}${this.suffix}`);
      },
    };
    const kind = fixedShapeKind(declaration);
    expect(kind.holdField?.('x')).toBe('x:read');
    expect(kind.refused?.('o').message).toBe('o:read');
    expect(kind.kindName).toBe('lock');
    expect(kind.renew).toBe(base.renew);
    expect(kind.waitChannel('x')).toBe(base.waitChannel('x'));
    const attempt = { field: 'f', hold: 'h', lease: 1, waitTime: 0 };
    expect(wire(kind.acquire(attempt))).toEqual(wire(base.acquire(attempt)));
    expect(wire(kind.release('f', 'h'))).toEqual(wire(base.release('f', 'h')));
    const force = { request: 'r', holders: { f: '1' } };
    expect(wire(kind.forceRelease(force))).toEqual(wire(base.forceRelease(force)));
    expect(wire(kind.extend('f', 'h', 5, 'r:2'))).toEqual(wire(base.extend('f', 'h', 5, 'r:2')));
    expect(wire(kind.state('f'))).toEqual(wire(base.state('f')));
    expect(kind.leave).toBeUndefined();
    expect(kind.backoff).toBeUndefined();
  });
});
