import { defineCommand } from '@deadbolt/core/kit';
import { latchScripts } from '../latchScripts.js';
import { decodeFlag, requestArgs, requestKeys, type LatchRequestInput } from './inputs.js';

/** Deletes a latch, waking its waiters (`delete.lua`): `true` when there was one. */
export const deleteLatchCommand = defineCommand<LatchRequestInput, boolean>({
  script: latchScripts.delete,
  keys: requestKeys,
  args: (_input, context) => requestArgs(context),
  decode: decodeFlag,
});
