import { holdMarkersKey, requestRecordKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { HandOffInput } from './inputs.js';
import { decodeHandOff, type HandOffReply } from './replies.js';

/**
 * Releases one hold of a reentrant lock and, when it was its owner's last, passes the lock to a
 * local waiter in the same step (`lock-handoff.lua`).
 */
export const lockHandOff = defineCommand<HandOffInput, HandOffReply<null>>({
  script: coreScripts.handOff,
  keys: ({ name, from }) => [name, requestRecordKey(name, from.hold), holdMarkersKey(name)],
  args: ({ from, to, lease }, { recordTtl }) => [from.field, from.hold, to.field, to.hold, lease, recordTtl],
  decode: decodeHandOff,
});
