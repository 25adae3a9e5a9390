import { holdMarkersKey, lockChannelName, requestRecordKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { HoldInput } from './inputs.js';
import { UNLOCK_MESSAGE } from './messages.js';
import { decodeRelease, type ReleaseReply } from './replies.js';

/** Releases one hold of a reentrant lock; the last wakes one waiter (`lock-release.lua`). */
export const lockRelease = defineCommand<HoldInput, ReleaseReply>({
  script: coreScripts.release,
  keys: ({ name, hold }) => [name, lockChannelName(name), requestRecordKey(name, hold), holdMarkersKey(name)],
  args: ({ field, hold }, { publish, recordTtl }) => [UNLOCK_MESSAGE, field, hold, publish, recordTtl],
  decode: decodeRelease,
});
