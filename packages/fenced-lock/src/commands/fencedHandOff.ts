import { defineCommand, handOffNotPassed, holdMarkersKey, requestRecordKey, type HandOffInput, type HandOffReply } from '@deadbolt/core/kit';
import { fencedScripts } from '../fencedScripts.js';
import { fencingTokenKey } from '../fencingTokenKey.js';

/**
 * Releases one hold of a fenced lock and, when it was its owner's last, passes the lock to a local
 * waiter with a new fencing token, the grant (`handoff.lua`).
 */
export const fencedHandOff = defineCommand<HandOffInput, HandOffReply<bigint>>({
  script: fencedScripts.handOff,
  keys: ({ name, from }) => [name, requestRecordKey(name, from.hold), holdMarkersKey(name), fencingTokenKey(name)],
  args: ({ from, to, lease }, { recordTtl }) => [from.field, from.hold, to.field, to.hold, lease, recordTtl],
  // { token } when passed, as a decimal string (exact beyond 2^53); else nil or 0.
  decode: (reply) => (Array.isArray(reply) ? { status: 'passed', grant: BigInt(String(reply[0])) } : handOffNotPassed(reply)),
});
