import { InvalidArgumentError } from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import { WaitBudget } from '../src/index.js';

describe('WaitBudget', () => {
  it('counts down on the monotonic clock', async () => {
    const budget = new WaitBudget(200);
    expect(budget.remaining()).toBeLessThanOrEqual(200);
    await new Promise((resolve) => setTimeout(resolve, 220));
    expect(budget.remaining()).toBe(0);
    expect(budget.exhausted).toBe(true);
  });

  it('never runs out when infinite', () => {
    expect(new WaitBudget(Infinity).remaining()).toBe(Infinity);
  });

  it('refuses a negative budget', () => expect(() => new WaitBudget(-1)).toThrow(InvalidArgumentError));
});
