import { InvalidArgumentError } from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import { quorum, validityTime } from '../src/index.js';

describe('quorum', () => {
  it.each([
    [1, 1],
    [3, 2],
    [4, 3],
    [5, 3],
  ])('%i nodes need %i grants', (nodes, needed) => expect(quorum(nodes)).toBe(needed));

  it('refuses an empty deployment', () =>
    expect(() => quorum(0)).toThrow(expect.objectContaining({ name: 'InvalidArgumentError', argument: 'nodes' })));
});

describe('validityTime', () => {
  it('subtracts the elapsed time and the drift allowance', () => {
    expect(validityTime(10_000, 30)).toBe(10_000 - 30 - 102);
    expect(validityTime(100, 99)).toBeLessThan(0);
  });

  it('refuses a bad lease', () => expect(() => validityTime(-1, 0)).toThrow(InvalidArgumentError));
});
