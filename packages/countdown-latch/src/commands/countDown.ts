import { defineCommand } from '@deadbolt/core/kit';
import { latchScripts } from '../latchScripts.js';
import { requestArgs, requestKeys, type LatchRequestInput } from './inputs.js';

/**
 * Counts a latch down by one, opening it at zero (`count-down.lua`). Resolves nothing, as
 * Redisson's `countDown()`: the count it left may have moved again by the time anyone reads it.
 */
export const countDownCommand = defineCommand<LatchRequestInput, void>({
  script: latchScripts.countDown,
  keys: requestKeys,
  args: (_input, context) => requestArgs(context),
  decode: () => undefined,
});
