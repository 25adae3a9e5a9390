import { holdMarkersKey, lockChannelName, requestRecordKey } from '../keys/lockKeys.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { defineCommand } from '../scripts/Command.js';
import type { HandOffInput } from './inputs.js';
import { UNLOCK_MESSAGE } from './messages.js';
import { decodeHandOff, type HandOffReply } from './replies.js';

/**
 * Releases one hold of a reentrant lock and, when it was its owner's last, passes the lock to a
 * local waiter in the same step (`lock-handoff.lua`); frees it for everyone instead when the
 * waiter gave the hold back before the hand-off arrived.
 */
export const lockHandOff = defineCommand<HandOffInput, HandOffReply<null>>({
  script: coreScripts.handOff,
  keys: ({ name, from, to }) => [
    name,
    requestRecordKey(name, from.hold),
    holdMarkersKey(name),
    requestRecordKey(name, to.hold),
    lockChannelName(name),
  ],
  args: ({ from, to, lease }, { recordTtl, deadline, publish }) => [
    from.field,
    from.hold,
    to.field,
    to.hold,
    lease,
    recordTtl,
    deadline,
    publish,
    UNLOCK_MESSAGE,
  ],
  decode: decodeHandOff,
});
