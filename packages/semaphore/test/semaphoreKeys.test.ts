// The semaphore's channel name and what its messages mean to local waiters (issue 18).
import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { EXPIRABLE_SEMAPHORE_WAKES, SEMAPHORE_WAKES } from '../src/semaphoreKeys.js';
import { semaphoreChannelName } from '../src/index.js';

describe('semaphoreChannelName', () => {
  it("is Redisson's redisson_sc channel, in the name's slot", () => {
    expect(semaphoreChannelName('exports')).toBe('redisson_sc:{exports}');
    expect(semaphoreChannelName('tenant:{7}:exports')).toBe('redisson_sc:tenant:{7}:exports');
    expect(hashSlot(semaphoreChannelName('exports'))).toBe(hashSlot('exports'));
  });
});

describe('SEMAPHORE_WAKES', () => {
  it.each([1, 2, 10, 9007199254740991])('wakes the waiters %s permits can serve', (permits) => {
    expect(SEMAPHORE_WAKES(String(permits))).toEqual({ permits });
  });

  it.each(['0', '-1', '-20', '', '1.5', 'x', '01'])('wakes nobody on %j: no permit to take', (message) => {
    expect(SEMAPHORE_WAKES(message)).toBeUndefined();
  });
});

describe('EXPIRABLE_SEMAPHORE_WAKES', () => {
  it.each(['1', '2', '10', '9007199254740991'])('wakes every waiter on %s permits', (message) => {
    expect(EXPIRABLE_SEMAPHORE_WAKES(message)).toBe('all');
  });

  it.each(['0', '-1', '-20', '', '1.5', 'x', '01'])('wakes nobody on %j: no permit to take', (message) => {
    expect(EXPIRABLE_SEMAPHORE_WAKES(message)).toBeUndefined();
  });
});
