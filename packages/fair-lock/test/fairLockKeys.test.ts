import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { fairLockKeys } from '../src/index.js';

describe('fairLockKeys', () => {
  it("follows Redisson's layout", () => {
    const keys = fairLockKeys('orders');
    expect(keys).toMatchObject({
      lock: 'orders',
      queue: 'redisson_lock_queue:{orders}',
      timeouts: 'redisson_lock_timeout:{orders}',
    });
    expect(keys.waiterChannel('uuid:7')).toBe('redisson_lock__channel:{orders}:uuid:7');
  });

  it('keeps every key in the lock name tag slot', () => {
    for (const name of ['orders', 'tenant:{7}:orders']) {
      const keys = fairLockKeys(name);
      const slot = hashSlot(name.includes('{') ? name : `{${name}}`);
      expect([keys.queue, keys.timeouts, keys.waiterChannel('c:1')].map(hashSlot)).toEqual([slot, slot, slot]);
    }
  });
});
