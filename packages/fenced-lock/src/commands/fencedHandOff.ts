import {
  defineCommand,
  handOffNotPassed,
  holdMarkersKey,
  lockChannelName,
  lockCommands,
  requestRecordKey,
  type HandOffInput,
  type HandOffReply,
} from '@deadbolt/core/kit';
import { fencedScripts } from '../fencedScripts.js';
import { fencingTokenKey } from '../fencingTokenKey.js';

/**
 * Releases one hold of a fenced lock and, when it was its owner's last, passes the lock to a local
 * waiter with a new fencing token, the grant (`handoff.lua`).
 */
export const fencedHandOff = defineCommand<HandOffInput, HandOffReply<bigint>>({
  script: fencedScripts.handOff,
  keys: ({ name, from, to }) => [
    name,
    requestRecordKey(name, from.hold),
    holdMarkersKey(name),
    fencingTokenKey(name),
    requestRecordKey(name, to.hold),
    lockChannelName(name),
  ],
  // The plain lock's hand-off arguments: only the keys (the token counter) differ.
  args: (input, context) => lockCommands.handOff.args(input, context),
  // { token } when passed, as a decimal string (exact beyond 2^53); else nil, 0 or 2 (freed instead).
  decode: (reply) =>
    Array.isArray(reply) ? { status: 'passed', grant: BigInt(String(reply[0])) } : handOffNotPassed(reply),
});
