import { holdMarkersKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { LeasedHoldInput } from './inputs.js';
import { decodeNilOrTtl, type AcquireReply } from './replies.js';

/** Takes or re-enters a reentrant lock (`lock-acquire.lua`). */
export const lockAcquire = defineCommand<LeasedHoldInput, AcquireReply<null>>({
  script: coreScripts.acquire,
  keys: ({ name }) => [name, holdMarkersKey(name)],
  args: ({ lease, field, hold }) => [lease, field, hold],
  decode: decodeNilOrTtl,
});
