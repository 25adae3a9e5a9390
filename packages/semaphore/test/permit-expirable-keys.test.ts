// The permit-expirable semaphore's held-permits key and its permit ids (issue 18).
import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { permitTimeoutsKey } from '../src/index.js';
import { checkPermitId, newPermitIds } from '../src/permitIds.js';

describe('permitTimeoutsKey', () => {
  it("is Redisson's {name}:timeout, in the name's slot; a name with a hash tag keeps its own", () => {
    expect(permitTimeoutsKey('encoders')).toBe('{encoders}:timeout');
    expect(permitTimeoutsKey('tenant:{7}:encoders')).toBe('tenant:{7}:encoders:timeout');
    expect(hashSlot(permitTimeoutsKey('encoders'))).toBe(hashSlot('encoders'));
  });
});

describe('permit ids', () => {
  it("are 32 lowercase hex digits (16 random bytes, Redisson's generateId), all different", () => {
    const ids = newPermitIds(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(50);
  });

  it.each(['00', 'ABcd', '0123456789abcdef0123456789abcdef'])('accepts %j: hex digit pairs, either case', (id) => {
    expect(checkPermitId(id)).toBe(id);
  });

  it.each(['', 'a', 'abc', 'zz', '0x12', 'ab cd', 12])('refuses %j, naming permitId', (id) => {
    expect(() => checkPermitId(id)).toThrow(
      expect.objectContaining({ name: 'InvalidArgumentError', argument: 'permitId' }),
    );
  });
});
