import { holdMarkersKey, requestRecordKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { LeasedHoldInput } from './inputs.js';
import { decodeNilOrTtl, type AcquireReply } from './replies.js';

/** Takes or re-enters a reentrant lock, once per attempt and never past its deadline (`lock-acquire.lua`). */
export const lockAcquire = defineCommand<LeasedHoldInput, AcquireReply<null>>({
  script: coreScripts.acquire,
  keys: ({ name, hold }) => [name, holdMarkersKey(name), requestRecordKey(name, hold)],
  args: ({ lease, field, hold }, { deadline }) => [lease, field, hold, deadline],
  decode: decodeNilOrTtl,
});
