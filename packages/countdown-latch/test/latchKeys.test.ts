import { InvalidArgumentError } from '@deadbolt/core';
import { requestRecordKey } from '@deadbolt/core/kit';
import { hashSlot } from '@deadbolt/core/adapter';
import { describe, expect, it } from 'vitest';
import { checkLatchName } from '../src/latchKeys.js';
import { latchChannelName } from '../src/index.js';

describe('latch keys', () => {
  it("Redisson's channel and Deadbolt's request record hash to the latch's slot", () => {
    expect(latchChannelName('deploy:42')).toBe('redisson_countdownlatch__channel__{deploy:42}');
    expect(requestRecordKey('deploy:42', 'inst-1:7')).toBe('deadbolt_request:{deploy:42}:inst-1:7');
    expect(hashSlot(latchChannelName('deploy:42'))).toBe(hashSlot('deploy:42'));
    expect(hashSlot(requestRecordKey('deploy:42', 'inst-1:7'))).toBe(hashSlot('deploy:42'));
  });

  it.each(['', '{deploy}:42', 'deploy}', 'a{b}c'])('refuses the name %j, naming the argument', (name) => {
    expect(() => checkLatchName(name)).toThrow(InvalidArgumentError);
    expect(() => checkLatchName(name)).toThrow(/^Invalid argument name:/);
  });
});
