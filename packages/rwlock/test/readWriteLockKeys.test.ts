import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { readWriteLockKeys } from '../src/index.js';

describe('readWriteLockKeys', () => {
  it("follows Redisson's layout", () => {
    const keys = readWriteLockKeys('catalog');
    expect(keys.channel).toBe('redisson_rwlock:{catalog}');
    expect(keys.writerField('uuid:3')).toBe('uuid:3:write');
    expect(keys.readHoldKey('uuid:3', 2)).toBe('{catalog}:uuid:3:rwlock_timeout:2');
  });

  it('keeps read hold keys in the lock name tag slot', () => {
    expect(hashSlot(readWriteLockKeys('catalog').readHoldKey('u:1', 1))).toBe(hashSlot('{catalog}'));
    expect(readWriteLockKeys('a:{t}:b').readHoldKey('u:1', 1)).toBe('a:{t}:b:u:1:rwlock_timeout:1');
  });
});
