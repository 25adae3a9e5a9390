import { describe, expect, it } from 'vitest';
import { hashSlot } from '../src/adapter.js';
import { lockChannelName, prefixedName, requestRecordKey } from '../src/kit.js';

describe('hashSlot', () => {
  // Values from the Redis Cluster specification and `CLUSTER KEYSLOT`.
  it.each([
    ['123456789', 12739],
    ['foo', 12182],
    ['{user1000}.following', 3443],
    ['{user1000}.followers', 3443],
    ['foo{}{bar}', 8363],
    ['foo{{bar}}zap', 4015],
    ['foo{bar}{zap}', 5061],
  ])('%s is in slot %i', (key, slot) => {
    expect(hashSlot(key)).toBe(slot);
  });
});

describe("Redisson's key layout", () => {
  it('tags a plain name so its derived keys share its slot', () => {
    expect(lockChannelName('orders')).toBe('redisson_lock__channel:{orders}');
    expect(hashSlot(lockChannelName('orders'))).toBe(hashSlot('{orders}'));
    expect(requestRecordKey('orders', 'r1')).toBe('deadbolt_request:{orders}:r1');
  });

  it('keeps a name that has its own tag', () => {
    expect(prefixedName('redisson_lock__channel', 'lock:{tenant-7}:orders')).toBe(
      'redisson_lock__channel:lock:{tenant-7}:orders',
    );
    expect(hashSlot(lockChannelName('lock:{tenant-7}:orders'))).toBe(hashSlot('lock:{tenant-7}:orders'));
  });
});
