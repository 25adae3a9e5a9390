import { defineCommand } from '@deadbolt/core/kit';
import { latchScripts } from '../latchScripts.js';
import { decodeFlag, requestArgs, requestKeys, type LatchRequestInput } from './inputs.js';

/** What {@link trySetCountCommand} takes: the request and the count to set. */
export interface TrySetCountInput extends LatchRequestInput {
  /** The count, a non-negative safe integer. */
  readonly count: number;
}

/** Sets a latch's count when it has none (`try-set-count.lua`): `true` when set. */
export const trySetCountCommand = defineCommand<TrySetCountInput, boolean>({
  script: latchScripts.trySetCount,
  keys: requestKeys,
  args: ({ count }, context) => [count, ...requestArgs(context)],
  decode: decodeFlag,
});
