import { describe, expect, it } from 'vitest';
import { slotRange } from '../src/cluster/join.js';

describe('slotRange', () => {
  it('splits the 16384 slots among 3 masters as redis-cli --cluster create does', () => {
    expect([0, 1, 2].map((index) => slotRange(index, 3))).toEqual([
      [0, 5460],
      [5461, 10922],
      [10923, 16383],
    ]);
  });
});
