import { LockError } from '@deadbolt/core';
import { defineCommand } from '@deadbolt/core/kit';
import { latchScripts } from '../latchScripts.js';
import type { LatchInput } from './inputs.js';

/** Reads a latch's count (`get-count.lua`): 0 when it has none, as Redisson's `getCount()`. */
export const getCountCommand = defineCommand<LatchInput, number>({
  script: latchScripts.getCount,
  keys: ({ name }) => [name],
  args: () => [],
  decode: decodeCount,
});

function decodeCount(reply: unknown): number {
  if (reply === null) return 0;
  // get-count.lua replies with the count as a decimal string.
  const text = reply as string;
  // Anything else at the name is not a latch: waiting on it would wait on garbage.
  if (!/^-?\d+$/.test(text))
    throw new LockError(`A count-down latch holds a whole number, found ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}
