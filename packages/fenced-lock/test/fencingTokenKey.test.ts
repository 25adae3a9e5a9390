import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { fencingTokenKey } from '../src/index.js';

describe('fencingTokenKey', () => {
  it("follows Redisson's layout in the lock's slot", () => {
    expect(fencingTokenKey('ledger')).toBe('redisson_lock_token:{ledger}');
    expect(hashSlot(fencingTokenKey('ledger'))).toBe(hashSlot('{ledger}'));
  });
});
