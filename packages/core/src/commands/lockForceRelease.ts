import { holdMarkersKey, lockChannelName } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { LockInput } from './inputs.js';
import { UNLOCK_MESSAGE } from './messages.js';
import { decodeDone } from './replies.js';

/** Deletes a reentrant lock whoever holds it and wakes one waiter; `true` when there was one (`lock-force-release.lua`). */
export const lockForceRelease = defineCommand<LockInput, boolean>({
  script: coreScripts.forceRelease,
  keys: ({ name }) => [name, lockChannelName(name), holdMarkersKey(name)],
  args: (_input, { publish }) => [UNLOCK_MESSAGE, publish],
  decode: decodeDone,
});
